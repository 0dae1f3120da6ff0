#!/usr/bin/env bash
# bench-login-flood.sh [SECONDS]: does a login flood slow down checkouts?
# Starts the release build on CPU 0 (default settings: synchronous FULL,
# scrypt N = 2^15 as in production) with a fresh database, then measures a
# customer's checkout (POST /pedidos, a line, POST /pedidos/{id}/checkout:
# the checkout's own latency) one after another from CPU 1 for SECONDS [20]:
# first alone, then beside 200 connections of bogus logins (wrk -c200 on
# CPU 1, each a different login from a different client address through
# X-Forwarded-For, so the lock-out never spares the server a hash).
# Prints p50/p99 of the checkouts in both phases, their ratio, what the
# flood got (401 hashed and refused, 503 turned away with Retry-After, the
# connection then not read for 2 s), and how long a real login took meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-20}
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The bench connects from loopback, which is a trusted address by default: said here, not assumed.
COMANDA_TRUSTED_ADDRESSES=127.0.0.1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" \
  --database "$WORK/flood.sqlite" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
cat > "$WORK/flood.lua" <<'LUA'
-- A different login and client address every time: every one is hashed.
local n = 0
request = function()
  n = n + 1
  local a = math.random(1, 250)
  local b = math.random(1, 250)
  local headers = { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = "10.9." .. a .. "." .. b }
  return wrk.format("POST", "/sesiones", headers, '{"login": "intruso' .. n .. '", "password": "no-es-la-buena"}')
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
response = function(status)
  local key = "s" .. status
  _G[key] = (_G[key] or 0) + 1
end
done = function()
  for _, thread in ipairs(threads) do
    for _, status in ipairs({401, 429, 503}) do
      io.write("flood: ", status, " x ", tostring(thread:get("s" .. status) or 0), "\n")
    end
  end
end
LUA
taskset -c 1 python3 - "$PORT" "$SECONDS_EACH" "$WORK/flood.lua" <<'PY'
import http.client, json, statistics, subprocess, sys, time
port, seconds, flood = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]

def call(conn, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token: headers["Authorization"] = "Bearer " + token
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    r = conn.getresponse()
    data = r.read()
    return r.status, (json.loads(data) if data else None)

conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
call(conn, "POST", "/usuarios", {"nombre": "Cliente", "login": "comprador", "password": "contraseña-de-carga"})
token = call(conn, "POST", "/sesiones", {"login": "comprador", "password": "contraseña-de-carga"})[1]["token"]
plato = call(conn, "GET", "/platos")[1][0]["id"]

def checkouts(duration):
    times, end = [], time.monotonic() + duration
    while time.monotonic() < end:
        _, pedido = call(conn, "POST", "/pedidos", token=token)
        call(conn, "POST", f"/pedidos/{pedido['id']}/lineas", {"plato_id": plato}, token=token)
        t = time.monotonic()
        status, _ = call(conn, "POST", f"/pedidos/{pedido['id']}/checkout",
                         {"direccion": "Calle Mayor 1", "telefono": "600 000 000"}, token=token)
        times.append((time.monotonic() - t) * 1000)
        assert status == 200, status
    return times

def summary(name, times):
    q = statistics.quantiles(times, n=100)
    print(f"{name}: {len(times)} checkouts, p50 {statistics.median(times):.2f} ms, p99 {q[98]:.2f} ms, max {max(times):.2f} ms")
    return q[98]

checkouts(2)  # warm-up
alone = summary("alone", checkouts(seconds))
wrk = subprocess.Popen(["wrk", "-t1", "-c200", f"-d{int(seconds) + 4}s", "--timeout", "30s", "-s", flood,
                        f"http://127.0.0.1:{port}"], stdout=subprocess.PIPE, text=True)
time.sleep(2)
flooded = summary("with 200 connections of bogus logins", checkouts(seconds))
# The real manager logs in during the flood, as the pages do: a 503 is retried after its Retry-After.
t, tries = time.monotonic(), 0
while True:
    tries += 1
    status, _ = call(conn, "POST", "/sesiones", {"login": "comprador", "password": "contraseña-de-carga"})
    if status == 201 or time.monotonic() - t > 60: break
    time.sleep(2)
print(f"a real login during the flood: {status} after {time.monotonic() - t:.1f} s ({tries} tries)")
out = wrk.communicate()[0]
for line in out.splitlines():
    if line.startswith("flood:") or "Requests/sec" in line or "requests in" in line:
        print(line.strip())
print(f"checkout p99 with the flood / alone: {flooded / alone:.2f}x (target <= 2x)")
PY
