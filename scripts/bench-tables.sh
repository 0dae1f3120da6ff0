#!/usr/bin/env bash
# bench-tables.sh: the floor under load. Starts the release build on CPU 0
# (synchronous FULL, the default) with a fresh database and 120 tables in
# three zones, then from CPU 1 (wrk -t1 -c64, 8 s after a 2 s warm-up):
#   /health, GET /mesas (a full 200 each time), GET /mesas with If-None-Match
#   (304), as a host; then 64 clients each seating, freeing and cleaning its
#   own table in turn (POST …/sentar, …/liberar, …/limpia): moves/s and p99.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'contraseña-de-carga\n' > "$WORK/pw"
"$BIN" create-staff --crear jefa --rol gerente --database "$WORK/tables.sqlite" --password-file "$WORK/pw" >/dev/null
# wrk connects from loopback: trusted on purpose (no per-client limit), said here.
COMANDA_TRUSTED_ADDRESSES=127.0.0.1 COMANDA_SCRYPT_LOG_N=12 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" \
  --database "$WORK/tables.sqlite" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
TOKEN=$(python3 - "$PORT" "$WORK/tables.lua" <<'PY'
import json, sys, urllib.request
port, out = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}"
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r: return json.load(r)
token = call("POST", "/sesiones", {"login": "jefa", "password": "contraseña-de-carga"})["token"]
ids = []
for zona, n in [("Sala", 60), ("Terraza", 40), ("Barra", 20)]:
    for i in range(1, n + 1):
        ids.append(call("POST", "/mesas", {"nombre": f"{zona[0]}{i}", "zona": zona, "plazas": 4}, token)["id"])
with open(out, "w") as f:
    f.write("token = \"%s\"\nmesas = {%s}\n" % (token, ",".join(map(str, ids[:64]))))
print(token)
PY
)
ETAG=$(curl -sf -D - -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/mesas" | awk -F': ' 'tolower($1)=="etag"{print $2}' | tr -d '\r')
run() { # run NAME wrk-args...
  local name=$1; shift
  taskset -c 1 wrk -t1 -c64 -d2s "$@" >/dev/null
  taskset -c 1 wrk -t1 -c64 -d8s --latency "$@" | awk -v n="$name" '/Requests\/sec/{r=$2}/ 99%/{p=$2}/Non-2xx/{x=$5}END{printf "%-22s %10s req/s  p99 %s%s\n", n, r, p, x ? "  non-2xx " x : ""}'
}
run "/health" "http://127.0.0.1:$PORT/health"
run "GET /mesas (200)" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/mesas"
run "GET /mesas (304)" -H "Authorization: Bearer $TOKEN" -H "If-None-Match: $ETAG" "http://127.0.0.1:$PORT/mesas"
cat "$WORK/tables.lua" - > "$WORK/moves.lua" <<'LUA'
-- Each connection works one table: sentar, liberar, limpia, in turn.
local counter = 0
local conns = {}
setup = function(thread) end
init = function(args) end
local step = {}
request = function()
  counter = counter + 1
  local c = (counter % #mesas) + 1
  local id = mesas[c]
  local s = step[c] or 0
  step[c] = (s + 1) % 3
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
  if s == 0 then return wrk.format("POST", "/mesas/" .. id .. "/sentar", headers, '{"comensales": 3}')
  elseif s == 1 then return wrk.format("POST", "/mesas/" .. id .. "/liberar", headers, "{}")
  else return wrk.format("POST", "/mesas/" .. id .. "/limpia", headers, "{}") end
end
LUA
run "seat/free/clean moves" -s "$WORK/moves.lua" "http://127.0.0.1:$PORT"
curl -sf -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/mesas" | python3 -c '
import json, sys
m = json.load(sys.stdin)["mesas"]
print("tables:", len(m), "states:", {s: sum(1 for t in m if t["estado"] == s) for s in ("libre", "ocupada", "por_limpiar")})'
