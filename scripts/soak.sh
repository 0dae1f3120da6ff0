#!/usr/bin/env bash
# soak.sh [SECONDS]: a bounded mixed load (default 600 s) against the release
# build on loopback: menu reads and searches, orders with lines and checkouts,
# waitlist writes (JSON and legacy), feed polls, malformed requests and abrupt
# disconnects, from 8 client threads on 127.0.0.1; and an attacker on
# 127.0.0.2 (not a trusted address): photo uploads without a token (401 on the
# head), bodies trickled under the minimum rate (408), more connections than
# its share (503 past 256), wrong passwords for the host (401, then 429 for
# that address only) and names with a right-to-left override (422). Then it
# checks: zero 5xx for the well-behaved clients, every attack answered as
# the contract says, every
# acknowledged order and party is in the database, and RSS at the end within
# 10% of RSS after the first minute (or after a sixth of a shorter run).
# QUEUE_MAX [40]: the host seats parties beyond that many (0: no bound).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-600}
# COMANDA_BIN: another build to soak, e.g. one built with --sanitize=address:
# its LeakSanitizer report at the graceful stop is then printed and fails the run.
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release >&2
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'contraseña-de-sala\n' > "$WORK/password"
"$BIN" create-host --crear sala --database "$WORK/soak.sqlite" --password-file "$WORK/password" >/dev/null
COMANDA_SCRYPT_LOG_N=12 COMANDA_BODY_RATE_GRACE_SECONDS=2 COMANDA_TRUSTED_ADDRESSES=127.0.0.1 "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$WORK/soak.sqlite" \
  --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
KEYPATH=$(grep -o '/queue/[A-Za-z0-9_-]*' "$WORK/server.log" | head -1)
rc=0
python3 - "$PORT" "$PID" "$DURATION" "$KEYPATH" "$WORK/soak.sqlite" "${QUEUE_MAX:-40}" <<'PY' || rc=$?
import http.client, json, random, socket, sqlite3, sys, threading, time
port, pid, duration, keypath, dbpath, queue_max = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
lock = threading.Lock()
stats = {"requests": 0, "5xx": 0, "wrong_status": 0, "errors": 0, "orders": set(), "parties": set(), "malformed": 0, "aborted": 0}
attacks = {"photo_401": 0, "slow_408": 0, "hog_503": 0, "login_401": 0, "login_429": 0, "bidi_422": 0, "wrong": 0}
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1])
def call(conn, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token: headers["Authorization"] = "Bearer " + token
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    r = conn.getresponse(); data = r.read()
    with lock:
        stats["requests"] += 1
        if r.status >= 500: stats["5xx"] += 1
    return r.status, data
def new_conn(): return http.client.HTTPConnection("127.0.0.1", port, timeout=10)
c = new_conn()
call(c, "POST", "/usuarios", {"nombre": "x", "login": "sala-login-check", "password": "12345678"})
host = json.loads(call(c, "POST", "/sesiones", {"login": "sala", "password": "contraseña-de-sala"})[1])["token"]
platos = [p["id"] for p in json.loads(call(c, "GET", "/platos")[1])]
end = time.time() + duration
def worker(n):
    rnd = random.Random(n)
    conn = new_conn()
    login = f"soak{n}"
    call(conn, "POST", "/usuarios", {"nombre": f"Soak {n}", "login": login, "password": "contraseña-soak"})
    token = json.loads(call(conn, "POST", "/sesiones", {"login": login, "password": "contraseña-soak"})[1])["token"]
    while time.time() < end:
        try:
            k = rnd.random()
            if k < 0.30:
                call(conn, "GET", rnd.choice(["/platos", "/carta", "/categorias", "/platos?q=jamon", "/platos?q=POLLO", f"/platos/{rnd.choice(platos)}"]))
            elif k < 0.45:
                call(conn, "GET", rnd.choice(["/queue", "/reservations", "/health"]))
            elif k < 0.65:
                status, body = call(conn, "POST", "/pedidos", token=token)
                pedido = json.loads(body)["id"]
                for _ in range(rnd.randint(1, 3)):
                    call(conn, "POST", f"/pedidos/{pedido}/lineas", {"plato_id": rnd.choice(platos), "cantidad": rnd.randint(1, 3)}, token)
                if rnd.random() < 0.7:
                    s, b = call(conn, "POST", f"/pedidos/{pedido}/checkout", {"direccion": "Calle Mayor 1, Madrid", "telefono": "915551234"}, token)
                    if s == 200:
                        with lock: stats["orders"].add(pedido)
                else:
                    call(conn, "DELETE", f"/pedidos/{pedido}", token=token)
            elif k < 0.80:
                name = rnd.choice(["Ana", "José María", "Zoë", "山田", "Valentime, Sr:", "😀"]) + f" {rnd.randint(1, 999)}"
                if rnd.random() < 0.5:
                    s, b = call(conn, "POST", "/reservations", {"name": name, "size": rnd.randint(1, 8)}, host)
                    if s == 201:
                        with lock: stats["parties"].add(json.loads(b)["id"])
                else:
                    from urllib.parse import quote
                    s, b = call(conn, "POST", f"{keypath}/{quote(name)}/{rnd.randint(1, 8)}")
                    if s == 201:
                        with lock: stats["parties"].add(int(b.decode().strip().split("\n")[-1].split(",")[0][3:]))
                # The host marks parties ready and seats them: the list stays about as long as a
                # real evening's (QUEUE_MAX parties; QUEUE_MAX=0 lets it grow without bound).
                listed = json.loads(call(conn, "GET", "/reservations")[1])["reservations"]
                if listed and rnd.random() < 0.3:
                    call(conn, "POST", f"/reservations/{rnd.choice(listed)['id']}/ready", token=host)
                over = queue_max and len(listed) > queue_max
                for party in rnd.sample(listed, min(len(listed), 2 if over else 1 if rnd.random() < 0.3 else 0)):
                    call(conn, "DELETE", f"/reservations/{party['id']}", token=host)
            elif k < 0.90:
                # Each malformed request and the status the contract gives it (501 and 505 are right answers).
                raw, want = rnd.choice([(b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", b"505"), (b"BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n", b"501"),
                                        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", b"400"),
                                        (b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n", b"400"), (b"\xff\xfe garbage\r\n\r\n", b"400")])
                s = socket.create_connection(("127.0.0.1", port), timeout=5); s.sendall(raw)
                data = s.recv(200); s.close()
                with lock:
                    stats["malformed"] += 1
                    if data[9:12] != want: stats["wrong_status"] += 1
            else:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(rnd.choice([b"GET /platos HTTP/1.1\r\nHost: x\r\n", b"POST /pedidos HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\"", b"GET /carta HTTP/1.1\r\nHost: x\r\n\r\n"]))
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                s.close()
                with lock: stats["aborted"] += 1
        except Exception as e:
            with lock: stats["errors"] += 1
            conn.close(); conn = new_conn()
def attacker():
    """One client address that is not trusted, doing what the contract refuses."""
    rnd = random.Random(99)
    def connect():
        s = socket.socket(); s.settimeout(5); s.bind(("127.0.0.2", 0)); s.connect(("127.0.0.1", port)); return s
    def status_of(s):
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk: break
            data += chunk
        return data[9:12]
    def expect(ok, key):
        with lock: attacks[key if ok else "wrong"] += 1
    trickling = []
    while time.time() < end:
        try:
            k = rnd.random()
            if k < 0.3:
                s = connect()
                s.sendall(b"PUT /platos/1/foto HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 5000000\r\n\r\n" + b"x" * 65536)
                expect(status_of(s) == b"401", "photo_401"); s.close()
            elif k < 0.45 and len(trickling) < 20:
                s = connect()
                s.sendall(b"POST /usuarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{")
                trickling.append(s)
            elif k < 0.5:
                held = []
                try:
                    for _ in range(300):
                        held.append(connect())
                    # Past the share, each one is answered 503 at once.
                    held[-1].settimeout(2)
                    expect(status_of(held[-1]) == b"503", "hog_503")
                finally:
                    for h in held: h.close()
            elif k < 0.8:
                s = connect()
                body = json.dumps({"login": "sala", "password": "no-es-la-buena"}).encode()
                s.sendall(b"POST /sesiones HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
                got = status_of(s); s.close()
                expect(got in (b"401", b"429"), "login_401" if got == b"401" else "login_429")
            else:
                s = connect()
                body = json.dumps({"name": "Ana \u202egnp.exe\u202c", "size": 2}).encode()
                s.sendall(b"POST /reservations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer " + host.encode()
                          + b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
                expect(status_of(s) == b"422", "bidi_422"); s.close()
            for s in list(trickling):
                try:
                    s.setblocking(False)
                    try:
                        data = s.recv(200)
                    except BlockingIOError:
                        s.setblocking(True); s.sendall(b" "); continue
                    trickling.remove(s); expect(data[9:12] == b"408", "slow_408"); s.close()
                except OSError:
                    trickling.remove(s); s.close()
            time.sleep(0.05)
        except OSError:
            with lock: attacks["wrong"] += 1
    for s in trickling: s.close()
threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)] + [threading.Thread(target=attacker)]
start = time.time()
for t in threads: t.start()
early = None
mark = min(60, duration / 6)
samples, step = [], max(10, duration // 20)
while any(t.is_alive() for t in threads):
    time.sleep(1)
    elapsed = time.time() - start
    if early is None and elapsed >= mark: early = rss()
    if elapsed >= step * (len(samples) + 1): samples.append(f"{elapsed:.0f}s:{rss() // 1024}")
for t in threads: t.join()
late = rss()
db = sqlite3.connect(dbpath)
placed = {r[0] for r in db.execute("SELECT id FROM pedido WHERE estado = 'realizado'")}
kept = {r[0] for r in db.execute("SELECT id FROM reservation")}
lost_orders = stats["orders"] - placed
lost_parties = stats["parties"] - kept
growth = (late - early) / early * 100
print(f"soak {duration} s: {stats['requests']} requests + {stats['malformed']} malformed + {stats['aborted']} aborted connections; "
      f"5xx {stats['5xx']}; malformed answered with the wrong status {stats['wrong_status']}; client errors {stats['errors']}; orders placed {len(stats['orders'])} (lost {len(lost_orders)}); "
      f"parties added {len(stats['parties'])} (lost {len(lost_parties)}); RSS {early} kB after {mark:.0f} s, {late} kB at the end ({growth:+.1f}%)")
waiting = json.loads(call(new_conn(), "GET", "/reservations")[1])["reservations"]
print(f"RSS MB over time: {' '.join(samples)}; parties in the list at the end: {len(waiting)}")
print("attacks from 127.0.0.2: " + ", ".join(f"{k} {v}" for k, v in attacks.items()))
# The host logs in from its own address while its login is locked out for the attacker's.
ok = call(new_conn(), "POST", "/sesiones", {"login": "sala", "password": "contraseña-de-sala"})[0]
print(f"the host's own login during the attacker's lock-out: {ok}")
sys.exit(0 if stats["5xx"] == 0 and attacks["wrong"] == 0 and ok == 201 and attacks["slow_408"] > 0 and attacks["login_429"] > 0
         and attacks["photo_401"] > 0 and stats["wrong_status"] == 0 and not lost_orders and not lost_parties and abs(growth) <= 10 else 1)
PY
# A graceful stop: the server must exit 0 (and, under LeakSanitizer, leak nothing).
kill -TERM $PID; stopped=0; wait $PID || stopped=$?
if grep -q 'LeakSanitizer' "$WORK/server.log"; then grep -A40 'LeakSanitizer' "$WORK/server.log" | head -80; rc=1; fi
[ "$stopped" = 0 ] || { echo "the server exited with $stopped"; tail -5 "$WORK/server.log"; rc=1; }
exit $rc
