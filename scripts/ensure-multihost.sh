#!/usr/bin/env bash
# Makes sure the programs the multi-host tests run are installed (pip cannot install
# them): HAProxy, the load balancer in front of the hosts, and Redis, what the hosts share
# (tests/server/test_multihost.py starts its own of each, on loopback ports of its own,
# so nothing is configured or started here). Installs Debian's haproxy and redis-server
# when missing. Idempotent; quiet and quick when both are there.
# KNOCKABOUT_SKIP_MULTIHOST=1 (skip the multi-host tests on purpose) makes it do nothing.
set -euo pipefail

if [ "${KNOCKABOUT_SKIP_MULTIHOST:-}" = "1" ]; then
  exit 0
fi

say() { echo "ensure-multihost: $*" >&2; }

missing=()
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
if [ "${#missing[@]}" = 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

# one runner at a time (two test runs may start together)
exec 9>"${TMPDIR:-/tmp}/knockabout-ensure-multihost.lock"
flock 9
say "installing Debian's ${missing[*]} (needs root and apt)"
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
# (on a machine with systemd the packages also start their own services, on port 6379 and
# haproxy's default configuration; the tests use neither)
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}" >/dev/null 9>&-
for program in "${missing[@]}"; do
  if ! command -v "$program" >/dev/null 2>&1 && ! [ -x "/usr/sbin/$program" ] && ! [ -x "/usr/bin/$program" ]; then
    say "$program is still missing after apt-get install"
    exit 1
  fi
done
say "installed ${missing[*]}"
