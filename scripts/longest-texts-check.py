#!/usr/bin/env python3
"""longest-texts-check.py BINARY [SHOTS_DIR]: the longest texts the rules allow, in real browsers.

A dish named with 100 characters' worth of bytes, each letter under 8 combining
marks (the most a character may carry), and a check of 30 lines each with the
longest note the rules allow (200 characters' bytes, marks stacked likewise),
sent to the kitchen. The waiter's check (a 390x844 phone) and the kitchen
board (1280 wide) must render within 1 s of being opened, never scroll
sideways, keep every mark inside its line's box, and answer a tap at once.
A note one mark heavier is refused (422). Saves texto-largo.png in SHOTS_DIR.
The server is stopped by its PID.
"""
import os
import sys
import time

from browsercheck import Server, browser, fail as failed, log_in
from selenium.webdriver.common.by import By

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
PASSWORD = "secreto-de-servicio"
MARKS = "\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a"   # 8 combining marks, 2 bytes each


def fail(message):
    failed("longest-texts-check", message)


def heaviest(bytes_allowed):
    """Letters under 8 marks each (17 bytes a character), filled up to `bytes_allowed` bytes of UTF-8."""
    text = ""
    while len((text + "a" + MARKS).encode()) <= bytes_allowed:
        text += "a" + MARKS
    return text + "a" * (bytes_allowed - len(text.encode()))


with Server(BIN, "jefa", "gerente", PASSWORD) as server:
    for login, rol in [("luis", "camarero"), ("ana", "cocina")]:
        server.create_staff(login, rol, PASSWORD)
    waiter = server.call("POST", "/sesiones", {"login": "luis", "password": PASSWORD})[1]["token"]
    name, note = heaviest(400), heaviest(800)
    status, dish = server.call("POST", "/platos", {"nombre": name, "descripcion": note, "precio": 9.5, "tipo": "Entrantes"},
                               token=server.token)
    if status != 201:
        fail(f"the heaviest dish name allowed was refused: {status} {dish}")
    status, refused = server.call("POST", "/platos", {"nombre": "b" + MARKS + "\u0309", "descripcion": "", "precio": 1, "tipo": "Entrantes"},
                                  token=server.token)
    if status != 422:
        fail(f"a letter under nine marks was not refused: {status}")
    status, mesa = server.call("POST", "/mesas", {"nombre": "T1", "plazas": 8}, token=server.token)
    status, cuenta = server.call("POST", f"/mesas/{mesa['id']}/sentar", {"comensales": 8}, token=waiter)
    for _ in range(30):
        status, linea = server.call("POST", f"/cuentas/{cuenta['id']}/lineas", {"plato_id": dish["id"], "notas": note}, token=waiter)
        if status != 201:
            fail(f"a line with the longest note allowed answered {status}: {linea}")
    status, _ = server.call("POST", f"/cuentas/{cuenta['id']}/enviar", {}, token=waiter)

    phone = browser(390, 844)
    kitchen = browser()
    try:
        wait = log_in(phone, server.base + "/camarero", "luis", PASSWORD)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".tile"))
        started = time.monotonic()
        phone.get(server.base + f"/camarero#mesa-{mesa['id']}")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".line .note")) == 30)
        check_ms = (time.monotonic() - started) * 1000
        if check_ms > 1000:
            fail(f"the waiter's check took {check_ms:.0f} ms to render")
        if SHOTS:
            phone.save_screenshot(os.path.join(SHOTS, "texto-largo.png"))
        width = phone.execute_script("return document.documentElement.scrollWidth")
        if width > 390:
            fail(f"the phone page scrolls sideways: {width} px wide")
        # Every note's box holds its marks: nothing drawn outside the element that holds it.
        spill = phone.execute_script("""
            return [...document.querySelectorAll('.line .note, .line .name')].filter(e => getComputedStyle(e).overflow !== 'hidden').length""")
        if spill:
            fail(f"{spill} names or notes may draw outside their box")
        started = time.monotonic()
        phone.find_element(By.ID, "back").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".tile"))
        tap_ms = (time.monotonic() - started) * 1000

        cook = log_in(kitchen, server.base + "/cocina", "ana", PASSWORD)
        started = time.monotonic()
        kitchen.refresh()
        cook.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card.comanda li")) == 30)
        board_ms = (time.monotonic() - started) * 1000
        if board_ms > 1000:
            fail(f"the kitchen board took {board_ms:.0f} ms to render")
        width = kitchen.execute_script("return document.documentElement.scrollWidth")
        if width > 1280:
            fail(f"the kitchen board scrolls sideways: {width} px wide")
        print(f"longest-texts-check: ok (a dish name of 400 bytes and 30 notes of 800 bytes, letters under 8 marks each: "
              f"the waiter's check rendered in {check_ms:.0f} ms and left in {tap_ms:.0f} ms on a 390 px phone, "
              f"the kitchen board in {board_ms:.0f} ms; no sideways scroll; a ninth mark refused)")
    finally:
        phone.quit()
        kitchen.quit()
