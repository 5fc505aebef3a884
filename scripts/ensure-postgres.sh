#!/usr/bin/env bash
# Makes sure the PostgreSQL server the tests use is running (pip cannot install it):
#   postgresql+psycopg://knockabout:knockabout@127.0.0.1:5432/knockabout_test
# If it does not answer, this installs Debian's postgresql (when missing), starts a
# cluster with pg_ctlcluster (no systemd needed), and creates the role and database.
# Idempotent; quiet and quick when the server already answers.
# KNOCKABOUT_TEST_POSTGRES_URL (a server of your own) or KNOCKABOUT_SKIP_POSTGRES=1
# (skip the PostgreSQL tests on purpose) make it do nothing.
set -euo pipefail

if [ "${KNOCKABOUT_SKIP_POSTGRES:-}" = "1" ] || [ -n "${KNOCKABOUT_TEST_POSTGRES_URL:-}" ]; then
  exit 0
fi

PG_USER=knockabout
PG_PASSWORD=knockabout
PG_DB=knockabout_test
PG_HOST=127.0.0.1
PG_PORT=5432
URL="postgresql+psycopg://$PG_USER:$PG_PASSWORD@$PG_HOST:$PG_PORT/$PG_DB"

say() { echo "ensure-postgres: $*" >&2; }

answers() {  # the tests' role logs in to the tests' database over TCP
  command -v psql >/dev/null 2>&1 || return 1
  PGPASSWORD="$PG_PASSWORD" PGCONNECT_TIMEOUT=3 \
    psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d "$PG_DB" -tAqc 'select 1' >/dev/null 2>&1
}

if answers; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
as_postgres() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

# One runner at a time from here on (two test runs may start together). Whatever may
# start a daemon runs with fd 9 closed, or the server would hold the lock forever.
exec 9>"${TMPDIR:-/tmp}/knockabout-ensure-postgres.lock"
flock 9
if answers; then
  exit 0
fi

if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  say "PostgreSQL not installed; installing Debian's postgresql (needs root and apt)"
  $SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq postgresql >/dev/null 9>&-
fi

# The cluster on our port, else a new one (the package usually made "main" already).
read -r VER NAME STATUS < <(pg_lsclusters -h 2>/dev/null | awk -v p="$PG_PORT" '$3 == p {print $1, $2, $4; exit}') || true
if [ -z "${VER:-}" ]; then
  VER="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
  NAME=main
  if [ -d "/etc/postgresql/$VER/$NAME" ]; then NAME=knockabout; fi
  say "creating cluster $VER/$NAME on port $PG_PORT"
  $SUDO pg_createcluster --port "$PG_PORT" "$VER" "$NAME" >/dev/null 9>&-
  STATUS=down
fi

if [ "$STATUS" != "online" ]; then
  say "starting PostgreSQL cluster $VER/$NAME on port $PG_PORT"
  $SUDO install -d -o postgres -g postgres -m 2775 /var/run/postgresql
  $SUDO pg_ctlcluster "$VER" "$NAME" start 9>&- || say "pg_ctlcluster start failed; waiting for the server anyway"
fi
for _ in $(seq 1 60); do
  if pg_isready -q -h "$PG_HOST" -p "$PG_PORT"; then break; fi
  sleep 0.5
done
pg_isready -q -h "$PG_HOST" -p "$PG_PORT" || {
  say "PostgreSQL did not come up on $PG_HOST:$PG_PORT; see /var/log/postgresql/postgresql-$VER-$NAME.log"
  exit 1
}

# The tests' role (it owns the tests' database, so it may create schemas in it).
as_postgres psql -p "$PG_PORT" -v ON_ERROR_STOP=1 -qtA >/dev/null <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_USER') THEN
    CREATE ROLE $PG_USER LOGIN PASSWORD '$PG_PASSWORD';
  ELSE
    ALTER ROLE $PG_USER LOGIN PASSWORD '$PG_PASSWORD';
  END IF;
END
\$\$;
SQL
if [ "$(as_postgres psql -p "$PG_PORT" -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" != "1" ]; then
  as_postgres createdb -p "$PG_PORT" -O "$PG_USER" "$PG_DB"
fi

if ! answers; then
  say "PostgreSQL runs but $PG_USER cannot log in to $PG_DB on $PG_HOST:$PG_PORT (check pg_hba.conf)"
  exit 1
fi
say "PostgreSQL $VER ready; the tests use $URL"
