#!/usr/bin/env bash
# make-upgrade-fixture.sh TAG OUT.sql: a restaurant's database as an older
# comanda made it, for UpgradeTests. Builds TAG (a git worktree beside, debug),
# runs that binary on a new database with a company set, and drives its own API
# through an evening (a manager and a waiter, tables seated, comandas sent, a
# check paid by card, one in two shares in cash, an invoice voided, a check left
# open, a party on the waitlist), stops it, and writes the database as SQL text
# (`sqlite3 .dump`: readable, and no database file in git). The test loads it,
# serves it with today's binary and checks everything survived the migrations.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG=$1
OUT=$2
HERE=$(pwd)
TREE=${TMPDIR:-/tmp}/comanda-fixture-$TAG
[ -d "$TREE" ] || git worktree add -f "$TREE" "$TAG" >&2
(cd "$TREE" && swift build --product comanda >&2)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 - "$TREE/.build/debug/comanda" "$WORK" <<'PY'
import os, shutil, sys
sys.path.insert(0, "scripts")
from browsercheck import Server
binary, work = sys.argv[1], sys.argv[2]
env = dict(COMANDA_EMPRESA_NIF="B12345674", COMANDA_EMPRESA_RAZON_SOCIAL="Casa Pepe S.L.", COMANDA_ZONA_HORARIA="Europe/Madrid")
with Server(binary, "jefa", "gerente", "contraseña-de-prueba", **env) as s:
    s.create_staff("lucia", "camarero", "contraseña-de-lucia")
    boss = s.token
    waiter = s.call("POST", "/sesiones", {"login": "lucia", "password": "contraseña-de-lucia"})[1]["token"]
    platos = [p["id"] for p in s.call("GET", "/platos")[1]]
    def seated(name, guests):
        mesa = s.call("POST", "/mesas", {"nombre": name, "zona": "Sala", "plazas": 4}, boss)[1]["id"]
        return s.call("POST", f"/mesas/{mesa}/sentar", {"comensales": guests}, waiter)[1]["id"]
    def lines(cuenta, *dishes):
        for i, plato in enumerate(dishes):
            st, _ = s.call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": plato, "cantidad": 1 + i % 2, "curso": 1 + i % 2, "notas": "sin sal" if i == 0 else ""}, waiter)
            assert st == 201, st
        assert s.call("POST", f"/cuentas/{cuenta}/enviar", {}, waiter)[0] == 200
    t1, t2, t3 = seated("T1", 2), seated("T2", 4), seated("T3", 3)
    lines(t1, platos[0], platos[5])
    lines(t2, platos[1], platos[2], platos[9])
    lines(t3, platos[3])
    st, paid = s.call("POST", f"/cuentas/{t1}/cobros", {"metodo": "tarjeta", "propina": 1.5}, waiter)
    assert st == 201, paid
    for _ in range(2):
        st, share = s.call("POST", f"/cuentas/{t2}/cobros", {"metodo": "efectivo", "partes": 2, "entregado": 100}, waiter)
        assert st == 201, share
    st, voided = s.call("POST", f"/facturas/{paid['factura']['id']}/anular", {"motivo": "Cobrada a la mesa equivocada"}, boss)
    assert st == 200, voided
    assert s.call("POST", "/reservations", {"name": "Ana", "size": 4}, boss)[0] == 201
    s.stop()
    # The file with its -wal (what the last commits are in until a checkpoint).
    for suffix in ["", "-wal"]:
        if os.path.exists(os.path.join(s.work, "check.sqlite" + suffix)):
            shutil.copyfile(os.path.join(s.work, "check.sqlite" + suffix), os.path.join(work, "made.sqlite" + suffix))
PY
sqlite3 "$WORK/made.sqlite" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
{
  echo "-- A restaurant's database as comanda $TAG ($(git rev-parse --short "$TAG")) made it, by scripts/make-upgrade-fixture.sh."
  sqlite3 "$WORK/made.sqlite" .dump
} > "$HERE/$OUT"
echo "wrote $OUT: $(grep -c '^INSERT' "$HERE/$OUT") rows"
