#!/usr/bin/env bash
# bench-menu.sh [ROUNDS]: the managed menu under load. The release build on
# CPU 0 (synchronous NORMAL, as every benchmark here) serving the shared
# bench's 5,000-dish menu (../shared/bench/make_platos.py), to which each dish
# gets 0 to 3 allergens and a trace from a fixed seed; wrk on CPU 1
# (-t1 -c64 -d10s, after a 2 s warm-up) for, in each round:
#   plain   GET /platos?q=pollo
#   sin     GET /platos?sin=gluten,lacteos&q=pollo      (target: within 1.2x of plain)
#   foto    GET /platos/1/foto?v=TAG, a 200 KB photo    (target: at least 0.5x of /platos)
#   platos  GET /platos                                 (the whole menu, for the photo's ratio)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 ../shared/bench/make_platos.py 5000 -o "$WORK/raw.json"
python3 - "$WORK/raw.json" "$WORK/platos.json" <<'PY'
import json, random, sys
codes = ["gluten", "crustaceos", "huevos", "pescado", "cacahuetes", "soja", "lacteos", "frutos_de_cascara",
         "apio", "mostaza", "sesamo", "sulfitos", "altramuces", "moluscos"]
rng = random.Random(20261123)
platos = json.load(open(sys.argv[1]))
for p in platos:
    chosen = rng.sample(codes, rng.randint(0, 4))
    p["alergenos"] = sorted(chosen[:-1] if chosen else [], key=codes.index)
    p["trazas"] = chosen[-1:] if chosen else []
json.dump(platos, open(sys.argv[2], "w"), ensure_ascii=False)
PY
export COMANDA_SYNCHRONOUS=normal COMANDA_SCRYPT_LOG_N=10 COMANDA_DATABASE="$WORK/menu.sqlite"
echo "menu-bench-1" > "$WORK/pw"
"$BIN" create-staff --crear gerente --rol gerente --password-file "$WORK/pw" >/dev/null
COMANDA_TRUSTED_ADDRESSES=127.0.0.1,::1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" --platos "$WORK/platos.json" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "$BASE/health" && break; sleep 0.1; done
TOKEN=$(curl -sf -H 'Content-Type: application/json' -d '{"login":"gerente","password":"menu-bench-1"}' "$BASE/sesiones" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
# A 200 KB JPEG: a real header (SOF0 640x480) and bytes after it.
python3 -c '
import sys
head = bytes([0xFF,0xD8,0xFF,0xE0,0,16]) + b"JFIF\0\1\1\0\0\1\0\1\0\0" + bytes([0xFF,0xC0,0,11,8,1,0xE0,2,0x80,1,1,0x11,0])
sys.stdout.buffer.write(head + bytes((i * 37) & 0xFF for i in range(200 * 1024 - len(head) - 2)) + bytes([0xFF,0xD9]))' > "$WORK/foto.jpg"
FOTO=$(curl -sf -X PUT -H "Authorization: Bearer $TOKEN" -H 'Content-Type: image/jpeg' --data-binary @"$WORK/foto.jpg" "$BASE/platos/1/foto" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["foto"])')
echo "photo: $(stat -c %s "$WORK/foto.jpg") bytes at $FOTO; menu: $(curl -s "$BASE/platos" | wc -c) bytes, q=pollo: $(curl -s "$BASE/platos?q=pollo" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))') dishes, with sin: $(curl -s "$BASE/platos?sin=gluten,lacteos&q=pollo" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')"
run() { # name path
  taskset -c 1 wrk -t1 -c64 -d2s "$BASE$2" >/dev/null
  taskset -c 1 wrk -t1 -c64 -d10s --latency "$BASE$2" | awk -v n="$1" '/Requests\/sec/ {r=$2} / 99%/ {p=$2} END {print n, r, "p99", p}'
}
for round in $(seq "$ROUNDS"); do
  echo "== round $round"
  run plain "/platos?q=pollo"
  run sin "/platos?sin=gluten,lacteos&q=pollo"
  run foto "$FOTO"
  run platos "/platos"
done
