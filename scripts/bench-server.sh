#!/usr/bin/env bash
# Runs comanda the way ../shared/bench/run_server.sh expects: it reads PORT and
# PLATOS (the bench menu as JSON) from the environment and execs the server, so
# the PID measured and stopped is comanda's own. comanda keeps its own database
# beside the bench's DB file (whose schema is the peers'), and imports PLATOS on
# its first start. No per-request logging, as for the peers.
# With BENCH_LOGIN and BENCH_PASSWORD set, that host is created first: the
# bench's POST /reservations runs with its token, as the contract wants.
set -euo pipefail
: "${PORT:?}" "${PLATOS:?}" "${DB:?}"
BIN=${COMANDA_BIN:-.build/release/comanda}
DATABASE="$(dirname "$DB")/comanda.sqlite"
if [ -n "${BENCH_LOGIN:-}" ]; then
  printf '%s\n' "${BENCH_PASSWORD:?}" | "$BIN" create-host --crear "$BENCH_LOGIN" --database "$DATABASE" >/dev/null
fi
# The peers run WAL with synchronous = NORMAL; so does comanda here (its default is FULL).
# wrk connects from loopback: trusted on purpose (no per-client connection limit), said here.
COMANDA_TRUSTED_ADDRESSES=${COMANDA_TRUSTED_ADDRESSES:-127.0.0.1,::1} \
COMANDA_SYNCHRONOUS=${COMANDA_SYNCHRONOUS:-normal} exec "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$DATABASE" --platos "$PLATOS" --log-level notice
