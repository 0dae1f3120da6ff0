#!/usr/bin/env bash
# bench-kitchen.sh: the kitchen board under load. The release build on CPU 0
# with a fresh database (synchronous NORMAL, as the other benchmarks), 200
# active orders on the board; load generators on CPU 1. Measures, in one run:
#  1. /health with wrk -t1 -c64 -d10s (the reference rate);
#  2. the unchanged poll: 64 connections on GET /cocina/pedidos with
#     If-None-Match and no writes (all 304), its rate as a share of /health's;
#  3. the changed poll: one client moves an order (the list changes, still 200
#     active) then polls with the old tag, 400 times: the 200's latency p50/p99;
#  4. the poll under writes: the 64 pollers while 8 customers place orders
#     (open, a line, checkout) as fast as they can and the kitchen hands one
#     over for each (accept, prepared, handed over), so the board stays near
#     200: the poll's p50/p99, the share of 304s (from /metrics) and the
#     checkout rate.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export COMANDA_SYNCHRONOUS=${COMANDA_SYNCHRONOUS:-normal} COMANDA_SCRYPT_LOG_N=10 COMANDA_DATABASE="$WORK/k.sqlite"
echo "cocina-bench-1" > "$WORK/pw"
"$BIN" create-staff --crear cocina --rol cocina --password-file "$WORK/pw" >/dev/null
COMANDA_TRUSTED_ADDRESSES=127.0.0.1,::1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "$BASE/health" && break; sleep 0.1; done
taskset -c 1 python3 - "$BASE" "$WORK" <<'PY'
import json, sys, threading, time, urllib.request
base, work = sys.argv[1], sys.argv[2]
def call(method, path, body=None, token=None, headers=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    if body is not None: req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    for k, v in (headers or {}).items(): req.add_header(k, v)
    try:
        with urllib.request.urlopen(req) as r: return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e: return e.code, e.headers, e.read()
cook = json.loads(call("POST", "/sesiones", {"login": "cocina", "password": "cocina-bench-1"})[2])["token"]
customers = []
for i in range(9):
    call("POST", "/usuarios", {"nombre": f"Cliente {i}", "login": f"c{i}", "password": "cliente-bench"})
    customers.append(json.loads(call("POST", "/sesiones", {"login": f"c{i}", "password": "cliente-bench"})[2])["token"])
def place(token):
    pedido = json.loads(call("POST", "/pedidos", {}, token)[2])["id"]
    call("POST", f"/pedidos/{pedido}/lineas", {"plato_id": 1 + pedido % 40, "cantidad": 2}, token)
    call("POST", f"/pedidos/{pedido}/lineas", {"plato_id": 41 + pedido % 7, "cantidad": 1}, token)
    status = call("POST", f"/pedidos/{pedido}/checkout", {"direccion": "Calle Mayor 1", "telefono": "600000000"}, token)[0]
    return pedido if status == 200 else None
ids = [place(customers[0]) for _ in range(200)]
status, headers, body = call("GET", "/cocina/pedidos", token=cook)
print(f"board: {len(json.loads(body))} active orders, {len(body)} bytes")
# 3. The changed poll: each move changes the list (200 stay active).
samples = []
tag = headers["ETag"]
for i in range(400):
    pedido = ids[i % 200]
    call("POST", f"/cocina/pedidos/{pedido}/{'aceptar' if i < 200 else 'preparado'}", {"minutos": 15} if i < 200 else {}, cook)
    t0 = time.perf_counter()
    status, headers, body = call("GET", "/cocina/pedidos", token=cook, headers={"If-None-Match": tag})
    samples.append((time.perf_counter() - t0) * 1000)
    assert status == 200, status
    tag = headers["ETag"]
samples.sort()
print(f"changed poll (200 active, a move before each): p50 {samples[len(samples)//2]:.2f} ms, p99 {samples[int(len(samples)*0.99)]:.2f} ms, max {samples[-1]:.2f} ms (n=400, Python client)")
with open(f"{work}/token.lua", "w") as f: f.write(f'token = "{cook}"\n')
with open(f"{work}/customers.json", "w") as f: json.dump({"customers": customers[1:], "cook": cook}, f)
PY
cat "$WORK/token.lua" scripts/kitchen-poll.lua > "$WORK/poll.lua"
metric() { curl -s "$BASE/metrics" | awk -v s="$1" '/comanda_http_requests_total/ && /route="\/cocina\/pedidos"/ && $0 ~ "status=\""s"\"" {print $2}' | head -1; }
echo "== /health, 64 connections"
taskset -c 1 wrk -t1 -c64 -d2s "$BASE/health" >/dev/null
taskset -c 1 wrk -t1 -c64 -d10s --latency "$BASE/health" | grep -E 'Requests/sec|50%|99%'
echo "== unchanged poll (If-None-Match, no writes), 64 connections"
taskset -c 1 wrk -t1 -c64 -d2s -s "$WORK/poll.lua" "$BASE" >/dev/null
taskset -c 1 wrk -t1 -c64 -d10s --latency -s "$WORK/poll.lua" "$BASE" | grep -E 'Requests/sec|50%|99%|Non-2xx'
echo "== poll under writes: 64 pollers while 8 customers place orders"
before200=$(metric 200); before304=$(metric 304)
taskset -c 1 python3 - "$BASE" "$WORK" 10 > "$WORK/writers.txt" <<'PY' &
import json, sys, threading, time, urllib.request
base, work, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
setup = json.load(open(f"{work}/customers.json"))
customers, cook = setup["customers"], setup["cook"]
def call(method, path, body, token):
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode())
    req.add_header("Content-Type", "application/json"); req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r: return r.status, json.loads(r.read())
done = [0] * len(customers)
end = time.monotonic() + seconds
def work_(i):
    token = customers[i]
    previous = None
    while time.monotonic() < end:
        pedido = call("POST", "/pedidos", {}, token)[1]["id"]
        call("POST", f"/pedidos/{pedido}/lineas", {"plato_id": 1 + pedido % 40, "cantidad": 1}, token)
        if call("POST", f"/pedidos/{pedido}/checkout", {"direccion": "Calle Mayor 1", "telefono": "600000000"}, token)[0] == 200:
            done[i] += 1
        if previous:  # the kitchen hands the previous one over: the board stays near 200
            call("POST", f"/cocina/pedidos/{previous}/aceptar", {"minutos": 10}, cook)
            call("POST", f"/cocina/pedidos/{previous}/preparado", {}, cook)
            call("POST", f"/cocina/pedidos/{previous}/entregado", {}, cook)
        previous = pedido
threads = [threading.Thread(target=work_, args=(i,)) for i in range(len(customers))]
[t.start() for t in threads]; [t.join() for t in threads]
print(f"checkouts: {sum(done)} in {seconds:.0f} s = {sum(done)/seconds:.0f}/s (8 Python clients; 3 requests per order, 3 kitchen moves)")
PY
WRITERS=$!
taskset -c 1 wrk -t1 -c64 -d10s --latency -s "$WORK/poll.lua" "$BASE" | grep -E 'Requests/sec|50%|99%|Non-2xx'
wait $WRITERS
cat "$WORK/writers.txt"
after200=$(metric 200); after304=$(metric 304)
python3 -c "a=$after200-$before200; b=$after304-$before304; print(f'polls under writes: {a} answered 200, {b} answered 304: {100*b/(a+b):.1f}% 304')"
curl -s -H "Authorization: Bearer $(sed 's/token = "\(.*\)"/\1/' "$WORK/token.lua")" "$BASE/cocina/pedidos" | python3 -c 'import json,sys; print(f"board after the run: {len(json.load(sys.stdin))} active orders")'
