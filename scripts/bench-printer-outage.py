"""A printer off for a while at a busy service (issue #41's benchmark, not a test).

    python3 scripts/bench-printer-outage.py BIN [MINUTES] [PER_MINUTE] [on]

The server (BIN, pinned to CPU 0; this script and the printer on CPU 1) gets
PER_MINUTE sends a minute (default 500), each one new line with a numbered
note, at tables whose tickets print at one kitchen printer. The printer is
off (its port refuses) for MINUTES (default 10), then switched on while the
sends go on for another minute. Reported: the server's resident memory every
30 s, the jobs waiting, how long after the printer came back every job
queued while it was off had printed, and whether every send printed once and
in the order sent (the printer keeps each ticket; the notes say the order).
With `on`, the control: the printer is on from the start (the same load, the
same memory readings, for comparison)."""
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browsercheck import Server, free_port  # noqa: E402
from fakeprinter import FakePrinter  # noqa: E402

BIN = sys.argv[1]
MINUTES = float(sys.argv[2]) if len(sys.argv) > 2 else 10
PER_MINUTE = int(sys.argv[3]) if len(sys.argv) > 3 else 500
CONTROL = len(sys.argv) > 4 and sys.argv[4] == "on"


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


with Server(BIN, "jefa", "gerente", "contraseña-de-prueba", COMANDA_LOG_LEVEL="warning") as server:
    os.sched_setaffinity(server.process.pid, {0})
    os.sched_setaffinity(0, {1})
    token = server.call("POST", "/sesiones", {"login": "jefa", "password": "contraseña-de-prueba"})[1]["token"]
    port = free_port()   # nothing listens: the printer is off
    early = FakePrinter(port) if CONTROL else None
    status, printer = server.call("POST", "/impresoras", {"nombre": "Cocina", "host": "127.0.0.1", "puerto": port}, token)
    assert status == 201, printer
    assert server.call("POST", "/estaciones", {"nombre": "Cocina", "impresora_id": printer["id"], "por_defecto": True}, token)[0] == 201
    plato = server.call("GET", "/platos")[1][0]["id"]
    cuentas = []
    for i in range(20):
        mesa = server.call("POST", "/mesas", {"nombre": f"M{i + 1}", "zona": "Sala", "plazas": 4}, token)[1]
        cuentas.append(server.call("POST", f"/mesas/{mesa['id']}/sentar", {"comensales": 2}, token)[1]["id"])

    sent, errors, stop = [], [], threading.Event()

    def waiters():
        n, interval, next_at = 0, 60 / PER_MINUTE, time.monotonic()
        while not stop.is_set():
            n += 1
            cuenta = cuentas[n % len(cuentas)]
            s1, _ = server.call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": plato, "curso": 1, "notas": f"envio {n:06d}"}, token)
            s2, _ = server.call("POST", f"/cuentas/{cuenta}/enviar", {}, token)
            if s1 == 201 and s2 == 200:
                sent.append(n)
            else:
                errors.append((n, s1, s2))
            next_at += interval
            time.sleep(max(0, next_at - time.monotonic()))

    def pendientes():
        return server.call("GET", "/impresoras", None, token)[1][0]["pendientes"]

    load = threading.Thread(target=waiters, daemon=True)
    load.start()
    began = time.monotonic()
    print(f"printer {'on (control)' if CONTROL else 'off'}; {PER_MINUTE} sends a minute for {MINUTES:g} minutes", flush=True)
    memory = []
    while time.monotonic() - began < MINUTES * 60:
        memory.append(rss_kib(server.process.pid))
        print(f"{(time.monotonic() - began) / 60:5.1f} min: {len(sent)} sent, {pendientes()} waiting, server {memory[-1] / 1024:.1f} MiB", flush=True)
        time.sleep(min(30, max(0.1, MINUTES * 60 - (time.monotonic() - began))))
    waiting_at_return = pendientes()
    last_sent_while_off = len(sent)
    on_at = time.monotonic()
    fake = early or FakePrinter(port)   # switched on
    print(f"printer on: {waiting_at_return} jobs waiting", flush=True)
    drained = None
    while time.monotonic() - on_at < 60:
        printed = [int(m) for t in fake.tickets() for m in re.findall(r"envio (\d{6})", t)]
        if drained is None and len(printed) >= last_sent_while_off:
            drained = time.monotonic() - on_at
            print(f"every job queued while it was off printed {drained:.1f} s after it came back", flush=True)
        time.sleep(0.2)
    stop.set()
    load.join()
    deadline = time.monotonic() + 30
    while pendientes() > 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1)
    fake.stop()
    printed = [int(m) for t in fake.tickets() for m in re.findall(r"envio (\d{6})", t)]
    in_order = printed == sorted(printed)
    once = sorted(printed) == sorted(sent) and len(set(printed)) == len(printed)
    print(f"sent {len(sent)} ({len(errors)} refused), printed {len(printed)}; each once: {once}; in the order sent: {in_order}")
    print(f"server memory while off: first {memory[0] / 1024:.1f} MiB, last {memory[-1] / 1024:.1f} MiB, "
          f"max {max(memory) / 1024:.1f} MiB; after: {rss_kib(server.process.pid) / 1024:.1f} MiB")
    print(f"drained: {'%.1f s' % drained if drained is not None else 'NOT within a minute'}")
    sys.exit(0 if once and in_order and drained is not None and not errors else 1)
