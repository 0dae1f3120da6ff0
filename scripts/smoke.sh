#!/usr/bin/env bash
# smoke.sh BINARY: starts the server on a free loopback port with a throw-away
# database, checks /health and /, and stops it by its PID (SIGTERM: it must exit 0).
set -euo pipefail
BIN=${1:-.build/debug/comanda}
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$WORK/smoke.sqlite" >"$WORK/server.log" 2>&1 &
PID=$!
cleanup() { kill -KILL "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break
  kill -0 "$PID" 2>/dev/null || { cat "$WORK/server.log"; echo "smoke: server died"; exit 1; }
  sleep 0.1
done
body=$(curl -sf -m 2 "http://127.0.0.1:$PORT/health")
[ "$body" = ok ] || { echo "smoke: /health said '$body'"; exit 1; }
# Each page is saved whole before it is searched: `curl | grep -q` under pipefail
# fails at random, grep leaving at its first match and curl then writing into a
# closed pipe (exit 23) when the body arrived in more than one piece.
page() { curl -sf -m 5 -o "$WORK/page" "http://127.0.0.1:$PORT$1" && grep -q "$2" "$WORK/page"; }
page / '<title>La carta' || { echo "smoke: / is not the guests' menu"; exit 1; }
page /acerca '<title>Acerca de comanda' || { echo "smoke: /acerca is not the page about the server"; exit 1; }
code=$(curl -s -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/no-such-page")
[ "$code" = 404 ] || { echo "smoke: unknown page answered $code"; exit 1; }
kill -TERM "$PID"
rc=0; wait "$PID" || rc=$?
[ "$rc" = 0 ] || { cat "$WORK/server.log"; echo "smoke: exit status $rc after SIGTERM"; exit 1; }
echo "smoke: ok (/health, /, 404, graceful stop)"
