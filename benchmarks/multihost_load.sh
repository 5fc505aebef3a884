#!/usr/bin/env bash
# The load benchmark through HAProxy, over several hosts on this machine (loopback only):
#
#   benchmarks/multihost_load.sh HOSTS DB_URL [load.py options...]
#   benchmarks/multihost_load.sh 2 postgresql://knockabout:knockabout@127.0.0.1:5432/knockabout_load \
#       --levels 1000 --seconds 60 --clients 3 --think 3 --ramp 20
#
# Starts Redis (127.0.0.1:6390), HOSTS `knockabout serve` hosts (127.0.0.1:8101, 8102, ...,
# named h1, h2, ...; one worker each, the options benchmarks/load.py gives the server it
# starts itself), and HAProxy from deploy/haproxy.cfg (front 127.0.0.1:8000, stats :8404)
# with its server lines for those hosts; then runs benchmarks/load.py against HAProxy with
# every host's pid (its CPU and RSS columns add the hosts up), and stops what it started.
# The database must exist and be empty of other servers' tables (a fresh one per run).
# The hosts take the environment's KNOCKABOUT_* settings too (e.g. KNOCKABOUT_LEASE_SECONDS=15 on a
# machine so busy that a host's renewal may wait longer than the default 5 s).
# The hosts' logs and HAProxy's configuration are left in $KNOCKABOUT_LOAD_DIR (default: a
# temporary folder, printed).
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
HOSTS=$1
DB=$2
shift 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PY" ] || PY=python3
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$ROOT/src"
DIR=${KNOCKABOUT_LOAD_DIR:-$(mktemp -d)}
mkdir -p "$DIR"
REDIS_PORT=6390
FRONT=8000
STATS=8404

for port in $REDIS_PORT $FRONT $STATS $(seq 8101 $((8100 + HOSTS))); do
  if (echo >/dev/tcp/127.0.0.1/$port) 2>/dev/null; then
    echo "multihost_load: port $port is taken on 127.0.0.1" >&2
    exit 1
  fi
done

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

redis-server --bind 127.0.0.1 --port $REDIS_PORT --save "" --appendonly no --dir "$DIR" >"$DIR/redis.log" 2>&1 &
pids+=($!)
hosts=()
for i in $(seq 1 "$HOSTS"); do
  "$PY" -m knockabout.cli.main serve --host 127.0.0.1 --port $((8100 + i)) --host-name "h$i" --db "$DB" \
    --redis "redis://127.0.0.1:$REDIS_PORT/0" --pace 0.9 --bot-delay 2.0 --create-rate off \
    --server-create-rate off --max-tables 1000000 --message-rate off --finished-ttl 5 --grace 86400 \
    >"$DIR/h$i.log" 2>&1 &
  pids+=($!)
  hosts+=($!)
done
servers=""
for i in $(seq 1 "$HOSTS"); do servers+="    server h$i 127.0.0.1:$((8100 + i)) check\n"; done
sed -e '/^    server h[0-9] /d' -e "s|^listen stats|${servers}\nlisten stats|" "$ROOT/deploy/haproxy.cfg" >"$DIR/haproxy.cfg"
for i in $(seq 1 "$HOSTS"); do
  for _ in $(seq 1 600); do
    curl -fs "127.0.0.1:$((8100 + i))/healthz" >/dev/null 2>&1 && break
    sleep 0.5
  done
  curl -fs "127.0.0.1:$((8100 + i))/healthz" >/dev/null || { echo "multihost_load: h$i did not start (see $DIR/h$i.log)" >&2; exit 1; }
done
haproxy -db -f "$DIR/haproxy.cfg" >"$DIR/haproxy.log" 2>&1 &
pids+=($!)
sleep 3
echo "multihost_load: $HOSTS hosts (pids ${hosts[*]}) behind HAProxy at 127.0.0.1:$FRONT; logs in $DIR"
"$PY" "$ROOT/benchmarks/load.py" --server "http://127.0.0.1:$FRONT" --server-pid "$(IFS=,; echo "${hosts[*]}")" "$@"
for i in $(seq 1 "$HOSTS"); do
  echo "h$i: $(curl -s "127.0.0.1:$((8100 + i))/api/host")"
done
