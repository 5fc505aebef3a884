#!/usr/bin/env bash
# Installs what the browser tests need and pip cannot: Debian's Chromium.
# The tests point Playwright at /usr/bin/chromium (KNOCKABOUT_CHROMIUM overrides).
set -euo pipefail
CHROME="${KNOCKABOUT_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROME" ]; then
  exit 0
fi
echo "ensure-browser: $CHROME not found; installing Debian's chromium (needs root and apt)" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium >/dev/null
[ -x "$CHROME" ] || { echo "ensure-browser: chromium still missing at $CHROME" >&2; exit 1; }
