#!/usr/bin/env bash
# schemathesis.sh [BINARY] [EXAMPLES] [SEED]: attacks the API through its own
# description (docs/openapi.json, served at /openapi.json) with schemathesis.
# The binary (default: the release build) serves a fresh database in a
# temporary folder on a free loopback port; a host, a cook and a manager are
# made with `create-staff` and each runs every operation with their token
# (the manager passes every check; the host and the cook meet the 403s).
# Logging out has a pass of its own (it ends the token it is given). The
# manager's pass knows the legacy feed's host key, so the feed's writes are
# reached; the others try wrong keys.
# EXAMPLES per operation (default 25) and SEED (default 20261123) fix the
# run, so CI is repeatable; give more examples for a long run:
#   scripts/schemathesis.sh .build/release/comanda 500 $RANDOM
# Exits non-zero on any failure; the server is stopped by its PID.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-.build/release/comanda}")
EXAMPLES=${2:-25}
SEED=${3:-20261123}
WORK=$(mktemp -d)
PID=""
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill "$PID"; wait "$PID" || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
KEY=schemathesis-host-key-0001
# Event streams live 0.3 s here (an hour by default): a client that reads to
# the end, as schemathesis does, gets `retry:`, the connect event and a clean end.
export COMANDA_DATABASE="$WORK/comanda.sqlite" COMANDA_SCRYPT_LOG_N=10 COMANDA_LOG_LEVEL=warning COMANDA_QUEUE_HOST_KEY=$KEY \
  COMANDA_STREAM_MAX_SECONDS=0.3 COMANDA_HASH_IN_IDLE_TIME=false COMANDA_EMPRESA_NIF=B12345674
printf '[parameters]\n"path.key" = "%s"\n' "$KEY" > "$WORK/with-key.toml"
printf '\n' > "$WORK/plain.toml"
echo "staff-pass-1234" > "$WORK/pw"
for who in anfitrion cocina camarero gerente; do
  (cd "$WORK" && "$BIN" create-staff --crear "st-$who" --rol "$who" --password-file "$WORK/pw" >/dev/null)
done
(cd "$WORK" && exec "$BIN" serve --port "$PORT" 2>"$WORK/server.log") &
PID=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done

token() {
  curl -fs -X POST "http://127.0.0.1:$PORT/sesiones" -H 'Content-Type: application/json' \
    -d "{\"login\":\"st-$1\",\"password\":\"staff-pass-1234\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}

CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance
status=0
attack() { # attack CONFIG TOKEN [FILTER...]
  local config=$1 tok=$2
  shift 2
  schemathesis --config-file "$config" run "http://127.0.0.1:$PORT/openapi.json" --url "http://127.0.0.1:$PORT" \
    --checks "$CHECKS" --max-examples "$EXAMPLES" --seed "$SEED" \
    --phases "${PHASES:-examples,coverage,fuzzing,stateful}" --workers 1 --no-color --generation-database none \
    --suppress-health-check too_slow,filter_too_much \
    -H "Authorization: Bearer $tok" "$@" || status=1
}
for who in gerente anfitrion cocina; do
  echo "== schemathesis as $who: $EXAMPLES examples per operation, seed $SEED"
  config="$WORK/plain.toml"
  if [ "$who" = gerente ]; then config="$WORK/with-key.toml"; fi
  attack "$config" "$(token "$who")" --exclude-operation-id logout
done
echo "== schemathesis: logging out"
PHASES=examples,coverage,fuzzing attack "$WORK/plain.toml" "$(token gerente)" --include-operation-id logout

kill -0 "$PID" 2>/dev/null || { echo "the server died"; cat "$WORK/server.log"; exit 1; }
if grep -q "failed:" "$WORK/server.log"; then echo "the server logged an internal error:"; cat "$WORK/server.log"; status=1; fi
exit $status
