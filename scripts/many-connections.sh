#!/usr/bin/env bash
# many-connections.sh [N] [BINARY]: holds N (default 10000) idle keep-alive
# connections open to comanda (each has sent one request and got its answer),
# then measures GET /health from another client with wrk (-t1 -c8 -d10s,
# pinned to CPU 1; the server on CPU 0) and reports its p99, the server's open
# connections (from /metrics) and its RSS. Loopback only; stops the server by
# its PID.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
BIN=${2:-.build/release/comanda}
[ "$BIN" != .build/release/comanda ] || swift build -c release >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The server starts with the usual soft open-files limit of 1,024 (the hard
# limit is left alone) and must raise it itself; its log line is shown below.
COMANDA_MAX_CONNECTIONS=$((N + 1000)) COMANDA_IDLE_TIMEOUT=120 sh -c 'ulimit -Sn 1024 && exec "$@"' sh \
  COMANDA_TRUSTED_ADDRESSES=127.0.0.1,::1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" \
  --database "$WORK/c.sqlite" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
HOLDER=
cleanup() { [ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null; kill -TERM "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
grep -i 'open-files' "$WORK/server.log" || true

# The holder opens N connections, sends one request on each, reads each answer,
# says "ready", and keeps them open until it is killed.
python3 - "$PORT" "$N" >"$WORK/holder.out" 2>&1 <<'PY' &
import socket, sys, time, resource
port, n = int(sys.argv[1]), int(sys.argv[2])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
conns = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /health HTTP/1.1\r\nHost: hold\r\n\r\n")
    conns.append(s)
ok = 0
for s in conns:
    s.settimeout(10)
    data = b""
    while b"\r\n\r\nok" not in data:
        chunk = s.recv(4096)
        if not chunk: break
        data += chunk
    ok += data.startswith(b"HTTP/1.1 200")
print(f"ready {ok} of {n}", flush=True)
while True: time.sleep(1)
PY
HOLDER=$!
for _ in $(seq 1 600); do grep -q ready "$WORK/holder.out" 2>/dev/null && break; sleep 0.2; done
cat "$WORK/holder.out"
OPEN=$(curl -sf "http://127.0.0.1:$PORT/metrics" | awk '/^comanda_http_open_connections / {print $2}')
echo "server: open connections $OPEN, RSS $(awk '/^VmRSS/ {print $2, $3}' /proc/$PID/status)"
taskset -c 1 wrk -t1 -c8 -d10s --latency "http://127.0.0.1:$PORT/health" | grep -E 'Requests/sec|50%|99%|Socket|Non-2xx' | sed 's/^/health while held: /'
# The held connections are still there and still served.
curl -sf "http://127.0.0.1:$PORT/metrics" | awk '/^comanda_http_open_connections / {print "after: open connections " $2}'
