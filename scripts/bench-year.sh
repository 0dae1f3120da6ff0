#!/usr/bin/env bash
# bench-year.sh DB [INVOICES]: a year of a busy restaurant in DB for the
# benchmarks (bench-caja.sh, bench-caja-load.sh): INVOICES invoices (default
# 150,000) made as payments of 0,01 € through the API (256 tables seated,
# 99 steaks each, synchronous NORMAL to make them quickly), then spread over
# the last 365 days. The manager is jefa / contraseña-de-carga. A DB that
# already holds INVOICES invoices is kept as it is (made once, measured often).
# Uses COMANDA_BIN (default the release build, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
DB=$1
INVOICES=${2:-150000}
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -x "$BIN" ] || swift build -c release --product comanda >&2
count() { [ -f "$DB" ] && python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM factura").fetchone()[0])' "$DB" || echo 0; }
if [ "$(count)" -ge "$INVOICES" ]; then echo "invoices: $(count), over the last 365 days (kept from before)"; exit 0; fi
rm -f "$DB" "$DB-wal" "$DB-shm"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export COMANDA_EMPRESA_NIF=B12345674 COMANDA_EMPRESA_RAZON_SOCIAL="Casa Pepe S.L." COMANDA_ZONA_HORARIA=Europe/Madrid COMANDA_SCRYPT_LOG_N=12
printf 'contraseña-de-carga\n' > "$WORK/pw"
"$BIN" create-staff --crear jefa --rol gerente --database "$DB" --password-file "$WORK/pw" >/dev/null
PID=""
trap '[ -z "$PID" ] || kill -TERM $PID 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
COMANDA_SYNCHRONOUS=normal COMANDA_TRUSTED_ADDRESSES=127.0.0.1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$DB" \
  --log-level notice >>"$WORK/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
python3 -c 'import sys; sys.path.insert(0, "scripts"); import benchapi; benchapi.write_pay_lua(sys.argv[1], sys.argv[2])' "$PORT" "$WORK/pay.lua"
while [ "$(count)" -lt "$INVOICES" ]; do taskset -c 1 wrk -t1 -c64 -d5s -s "$WORK/pay.lua" "http://127.0.0.1:$PORT" >/dev/null; done
kill -TERM $PID; wait $PID || true; PID=""
# Spread them over the year: a busy restaurant's 365 days, not one afternoon.
python3 - "$DB" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
n = db.execute("SELECT count(*) FROM factura").fetchone()[0]
now = int(time.time())
# Invoices are never changed: the spreading goes behind the triggers' back, on this throw-away copy only.
triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('factura', 'cobro')").fetchall()
for name, _ in triggers: db.execute(f"DROP TRIGGER {name}")
db.execute("UPDATE factura SET fecha = ? - (? - id) * (365 * 86400 / ?)", (now, n, n))
db.execute("UPDATE cobro SET fecha = (SELECT fecha FROM factura WHERE factura.id = cobro.factura_id)")
for _, sql in triggers: db.execute(sql)
db.commit()
PY
echo "invoices: $(count), over the last 365 days"
