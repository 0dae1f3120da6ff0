#!/usr/bin/env bash
# Runs comanda the way ../shared/bench/run_server.sh expects: it reads PORT and
# PLATOS (the bench menu as JSON) from the environment and execs the server, so
# the PID measured and stopped is comanda's own. comanda keeps its own database
# beside the bench's DB file (whose schema is the peers'), and imports PLATOS on
# its first start. No per-request logging, as for the peers.
set -euo pipefail
: "${PORT:?}" "${PLATOS:?}" "${DB:?}"
exec "${COMANDA_BIN:-.build/release/comanda}" serve --host 127.0.0.1 --port "$PORT" \
  --database "$(dirname "$DB")/comanda.sqlite" --platos "$PLATOS" --log-level notice
