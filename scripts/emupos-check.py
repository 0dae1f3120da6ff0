#!/usr/bin/env python3
"""emupos-check.py BINARY [SHOTS_DIR]: comanda prints to a rendering ESC/POS printer emulator.

emupos (PyPI, Python ≥ 3.13; EMUPOS names its command, default the venv
.ci/run makes) runs two Epson TM-T20III on loopback: the kitchen's and the
till's. comanda (the real binary, company set, Europe/Madrid) gets them as
printers through its API, the kitchen's as the default station. A waiter
sends a table's comanda (Spanish names, an option, a note, a held course)
and the emulator's text dump of it is checked: the station and the table,
the lines, `EN ESPERA`, ñ, accents and € in code page 858 as the printer
decodes them. The check is paid and its invoice printed at the till: the
dump says FACTURA SIMPLIFICADA and the total, and the QR code in the
emulator's PNG decodes (zbarimg) to the invoice's `qr`. With SHOTS_DIR the
two tickets are saved side by side at paper size (tickets.png). Servers
stopped by their PIDs.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from browsercheck import Server, fail as failed, free_port

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
EMUPOS = os.environ.get("EMUPOS", "/tmp/emupos-venv/bin/emupos")


def fail(message):
    failed("emupos-check", message)


def main():
    if not os.path.exists(EMUPOS):
        fail(f"emupos is not installed at {EMUPOS} (python3.13 -m venv /tmp/emupos-venv && /tmp/emupos-venv/bin/pip install emupos)")
    work = tempfile.mkdtemp()
    api, cocina_port, caja_port = free_port(), free_port(), free_port()
    with open(os.path.join(work, "emupos.yaml"), "w") as f:
        f.write(f"""schema: 1
api: {{ host: 127.0.0.1, port: {api} }}
devices:
  - id: cocina
    type: printer
    profile: epson-tm-t20iii
    connections:
      - tcp: {{ port: {cocina_port} }}
    receipts_dir: ./cocina
  - id: caja
    type: printer
    profile: epson-tm-t20iii
    connections:
      - tcp: {{ port: {caja_port} }}
    receipts_dir: ./caja
""")
    env = dict(os.environ, EMUPOS_API=f"http://127.0.0.1:{api}")
    emulator = subprocess.Popen([EMUPOS, "run", "--config", "emupos.yaml"], cwd=work, env=env,
                                stdout=open(os.path.join(work, "emupos.log"), "w"), stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{api}/", timeout=1)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.2)
        else:
            fail("emupos did not start: " + open(os.path.join(work, "emupos.log")).read()[-2000:])

        def receipts(device):
            out = subprocess.run([EMUPOS, "receipt", "list", "--device", device, "--json"], env=env, capture_output=True, text=True)
            if out.returncode != 0:
                return []
            data = json.loads(out.stdout or "[]")
            return data if isinstance(data, list) else data.get("receipts", [])

        def show(device, receipt, png=None):
            args = [EMUPOS, "receipt", "show", receipt, "--device", device, "--json"] + (["--save", png] if png else [])
            out = subprocess.run(args, env=env, capture_output=True, text=True)
            if out.returncode != 0:
                fail(f"emupos receipt show: {out.stderr}")
            return json.loads(out.stdout)

        def wait_for(device, count, seconds=30):
            end = time.time() + seconds
            while time.time() < end:
                found = receipts(device)
                if len(found) >= count:
                    return found
                time.sleep(0.3)
            fail(f"the emulator's {device} printer has {len(receipts(device))} receipts, not {count}")

        menv = dict(COMANDA_EMPRESA_NIF="B12345674", COMANDA_EMPRESA_RAZON_SOCIAL="Casa Peña S.L.",
                    COMANDA_EMPRESA_DIRECCION="Calle Mayor 1, Madrid", COMANDA_ZONA_HORARIA="Europe/Madrid")
        with Server(BIN, "jefa", "gerente", "impresora-1234", **menv) as server:
            call, boss = server.call, server.token
            status, cocina = call("POST", "/impresoras", {"nombre": "Cocina", "host": "127.0.0.1", "puerto": cocina_port, "columnas": 48}, boss)
            if status != 201:
                fail(f"adding the kitchen's printer: {status} {cocina}")
            status, caja = call("POST", "/impresoras", {"nombre": "Caja", "host": "127.0.0.1", "puerto": caja_port, "columnas": 48,
                                                        "cajon": True}, boss)
            if status != 201:
                fail(f"adding the till's printer: {status} {caja}")
            if call("POST", "/estaciones", {"nombre": "Cocina", "impresora_id": cocina["id"], "por_defecto": True}, boss)[0] != 201:
                fail("adding the kitchen's station")
            platos = call("GET", "/platos")[1]
            with_options = next((p for p in platos if p.get("opciones")), platos[0])
            plain = next(p for p in platos if p["id"] != with_options["id"])
            mesa = call("POST", "/mesas", {"nombre": "Terraza 3", "plazas": 4}, boss)[1]["id"]
            cuenta = call("POST", f"/mesas/{mesa}/sentar", {"comensales": 3}, boss)[1]["id"]
            choice = [with_options["opciones"][0]["valores"][0]["id"]] if with_options.get("opciones") else []
            call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": with_options["id"], "cantidad": 2, "opciones": choice,
                                                       "notas": "sin sal, alérgico al piñón"}, boss)
            call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": plain["id"], "curso": 3}, boss)
            if call("POST", f"/cuentas/{cuenta}/enviar", {}, boss)[0] != 200:
                fail("the send was refused")
            found = wait_for("cocina", 1)
            comanda = show("cocina", found[0]["id"], os.path.join(work, "comanda.png"))
            text = comanda["text"]
            for words in ["Cocina", "Mesa Terraza 3", f"2 x {with_options['nombre']}", f"1 x {plain['nombre']}", "EN ESPERA",
                          "Nota: sin sal, alérgico al piñón", "PRIMEROS", "POSTRES"]:
                if words not in text:
                    fail(f"'{words}' is not on the kitchen's ticket as the printer rendered it:\n{text}")
            if comanda.get("boundary") != "cut":
                fail(f"the ticket was not cut: {comanda.get('boundary')}")
            # Paid; the invoice at the till (the drawer opens with cash).
            status, paid = call("POST", f"/cuentas/{cuenta}/cobros", {"metodo": "efectivo", "entregado": 500}, boss)
            if status != 201:
                fail(f"the payment: {status} {paid}")
            factura = paid["factura"]
            if call("POST", f"/facturas/{factura['id']}/imprimir", {"impresora_id": caja["id"]}, boss)[0] != 201:
                fail("printing the invoice was refused")
            found = wait_for("caja", 1)
            ticket = show("caja", found[0]["id"], os.path.join(work, "factura.png"))
            total = f"{factura['importe_total']:.2f}".replace(".", ",") + " €"
            for words in ["FACTURA SIMPLIFICADA", "Casa Peña S.L.", "NIF B12345674", factura["numero"], "TOTAL", total]:
                if words not in ticket["text"]:
                    fail(f"'{words}' is not on the invoice as the printer rendered it:\n{ticket['text']}")
            read = subprocess.run(["zbarimg", "--quiet", "--raw", os.path.join(work, "factura.png")], capture_output=True, text=True)
            if read.stdout.strip() != factura["qr"]:
                fail(f"the printed QR code reads {read.stdout.strip()!r}, the invoice's qr is {factura['qr']!r}")
            if SHOTS:
                # The two tickets side by side, at the printer's dots (576 across: 72 mm at 203 dpi).
                subprocess.run([os.path.join(os.path.dirname(EMUPOS), "python"), "-c", """
import sys
from PIL import Image
a, b = Image.open(sys.argv[1]).convert("L"), Image.open(sys.argv[2]).convert("L")
gap = 40
out = Image.new("L", (a.width + b.width + 3 * gap, max(a.height, b.height) + 2 * gap), 200)
out.paste(a, (gap, gap)); out.paste(b, (2 * gap + a.width, gap))
out.save(sys.argv[3])
""", os.path.join(work, "comanda.png"), os.path.join(work, "factura.png"), os.path.join(SHOTS, "tickets.png")], check=True)
    finally:
        emulator.terminate()
        try:
            emulator.wait(timeout=10)
        except subprocess.TimeoutExpired:
            emulator.kill()
        shutil.rmtree(work, ignore_errors=True)
    print(f"emupos-check: ok (a send rendered by an emulated TM-T20III: station, table, lines, EN ESPERA, a note with ñ and accents; "
          f"the invoice at the till: FACTURA SIMPLIFICADA, {total}, its QR code read back by zbar as the invoice's qr)")


if __name__ == "__main__":
    main()
