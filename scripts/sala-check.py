#!/usr/bin/env python3
"""sala-check.py BINARY [SHOTS_DIR]: the floor (/sala) in a real browser.

Headless Chromium through WebDriver (selenium, Debian's chromium and
chromium-driver). Starts comanda on a free loopback port with a throw-away
database and a manager, makes a host and a waiter with `create-staff`, and
the manager creates a dozen tables in three zones through the API. The host
(one browser) and the waiter (another) open /sala; the host taps a free
table and seats the waiting party the page offers (a name like an HTML
attack shows as text); the waiter's tile turns occupied without a reload
within 1 s; the party is gone from the host stand (/anfitrion); the waiter
frees the table (its check is empty) and marks it clean. Saves sala.png in
SHOTS_DIR. The server is stopped by its PID.
"""
import os
import sys
import time

from browsercheck import Server, browser, fail as failed, log_in, waiting
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
HOSTILE = "<b>Eve</b><img src=x onerror=alert(1)>"
PASSWORD = "secreto-de-sala"


def fail(message):
    failed("sala-check", message)


def tile(driver, mesa_id):
    return driver.find_element(By.CSS_SELECTOR, f".tile[data-id='{mesa_id}']")


with Server(BIN, "jefa", "gerente", PASSWORD) as server:
    for login, rol in [("sala", "anfitrion"), ("luis", "camarero")]:
        server.create_staff(login, rol, PASSWORD)
    ids = {}
    for zona, nombres in [("Sala", ["T1", "T2", "T3", "T4", "T10"]), ("Terraza", ["E1", "E2", "E3", "E4"]), ("Barra", ["B1", "B2", "B3"])]:
        for nombre in nombres:
            status, mesa = server.call("POST", "/mesas", {"nombre": nombre, "zona": zona, "plazas": 2 if zona == "Barra" else 4},
                                       token=server.token)
            if status != 201:
                fail(f"creating {nombre} answered {status}: {mesa}")
            ids[nombre] = mesa["id"]
    for name, size in [("Familia Núñez", 4), (HOSTILE, 2)]:
        status, party = server.call("POST", "/reservations", {"name": name, "size": size}, token=server.token)
        if status != 201:
            fail(f"adding {name} answered {status}")
        if name.startswith("Familia"):
            familia = party["id"]
    # Two tables already taken, one to be cleaned, for the picture.
    server.call("POST", f"/mesas/{ids['E1']}/sentar", {"comensales": 3}, token=server.token)
    server.call("POST", f"/mesas/{ids['B1']}/sentar", {"comensales": 2}, token=server.token)
    server.call("POST", f"/mesas/{ids['B1']}/liberar", token=server.token)

    host = browser()
    waiter = browser()
    try:
        wait = log_in(host, server.base + "/sala", "sala", PASSWORD)
        other = log_in(waiter, server.base + "/sala", "luis", PASSWORD)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tile")) == 12)
        other.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tile")) == 12)
        zones = [h.text for h in host.find_elements(By.CSS_SELECTOR, ".zone h2")]
        if zones != ["BARRA", "SALA", "TERRAZA"]:
            fail(f"zones not in order: {zones}")
        order = [t.find_element(By.CSS_SELECTOR, ".name").text for t in host.find_elements(By.CSS_SELECTOR, ".zone:nth-of-type(2) .tile")]
        if order != ["T1", "T2", "T3", "T4", "T10"]:
            fail(f"tables not in natural order: {order}")
        if "ocupada" not in tile(host, ids["E1"]).get_attribute("class"):
            fail("E1 is not shown occupied")

        # The host taps T2 and seats the family the page offers.
        tile(host, ids["T2"]).click()
        dialog = wait.until(EC.visibility_of_element_located((By.ID, "seat")))
        offered = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-parties button[data-party]"))
        labels = [b.text for b in offered]
        if f"{HOSTILE} · 2" not in labels:
            fail(f"the hostile name is not offered as text: {labels}")
        if labels[0] != "Familia Núñez · 4":
            fail(f"the fitting party is not offered first: {labels}")
        started = time.monotonic()
        host.find_element(By.CSS_SELECTOR, f"#seat-parties button[data-party='{familia}']").click()
        waiting(waiter, 3, 0.02).until(
            lambda d: "ocupada" in tile(d, ids["T2"]).get_attribute("class"))
        pushed = time.monotonic() - started
        if pushed >= 1.0:
            fail(f"the waiter's tile turned occupied after {pushed:.2f} s (must be under 1 s)")
        wait.until(EC.invisibility_of_element_located((By.ID, "seat")))
        state = tile(waiter, ids["T2"]).find_element(By.CSS_SELECTOR, ".state").text
        if "4 com." not in state:
            fail(f"the occupied tile does not show its guests: {state!r}")
        status, party = server.call("GET", f"/reservations/{familia}", token=server.token)
        if party.get("status") != "seated" or party.get("mesa") != "T2":
            fail(f"the family was not seated at T2: {party}")

        # The party is gone from the host stand.
        host.get(server.base + "/anfitrion")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#parties li[data-id]") or d.find_elements(By.CSS_SELECTOR, "#parties li.empty"))
        listed = [li.text for li in host.find_elements(By.CSS_SELECTOR, "#parties li[data-id]")]
        if any("Núñez" in text for text in listed):
            fail(f"the seated family is still on the host stand: {listed}")

        # A table whose check has lines is not freed: the page says why and the tile stays occupied.
        status, cuenta = server.call("POST", f"/mesas/{ids['T4']}/sentar", {"comensales": 2}, token=server.token)
        plato = server.call("GET", "/platos")[1][0]["id"]
        server.call("POST", f"/cuentas/{cuenta['id']}/lineas", {"plato_id": plato}, token=server.token)
        other.until(lambda d: "ocupada" in tile(d, ids["T4"]).get_attribute("class"))
        tile(waiter, ids["T4"]).click()
        other.until(EC.visibility_of_element_located((By.ID, "table")))
        waiter.find_element(By.XPATH, "//div[@id='table-actions']/button[normalize-space()='Liberar']").click()
        refusal = other.until(lambda d: d.find_element(By.ID, "table-error").text)
        if "algo por cobrar" not in refusal:
            fail(f"freeing a table with lines on its check says {refusal!r}")
        waiter.find_element(By.XPATH, "//div[@id='table-actions']/button[normalize-space()='Volver']").click()
        if "ocupada" not in tile(waiter, ids["T4"]).get_attribute("class"):
            fail("the table with lines on its check was freed")

        # The waiter frees T2 (its check is empty) and marks it clean.
        tile(waiter, ids["T2"]).click()
        other.until(EC.visibility_of_element_located((By.ID, "table")))
        waiter.find_element(By.XPATH, "//div[@id='table-actions']/button[normalize-space()='Liberar']").click()
        other.until(lambda d: "por_limpiar" in tile(d, ids["T2"]).get_attribute("class"))
        tile(waiter, ids["T2"]).click()
        other.until(EC.visibility_of_element_located((By.ID, "table")))
        waiter.find_element(By.XPATH, "//div[@id='table-actions']/button[normalize-space()='Limpia']").click()
        other.until(lambda d: "libre" in tile(d, ids["T2"]).get_attribute("class").split())

        # Ten walk-ins at T1 (4 seats): the floor suggests its free neighbours T2 and T3 of the same zone; seated joined.
        host.get(server.base + "/sala")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tile")) == 12)
        tile(host, ids["T1"]).click()
        wait.until(EC.visibility_of_element_located((By.ID, "seat")))
        host.find_element(By.XPATH, "//div[@id='seat-walkins']/button[normalize-space()='10']").click()
        wait.until(EC.visibility_of_element_located((By.ID, "seat-join")))
        suggested = [b.get_attribute("data-id") for b in host.find_elements(By.CSS_SELECTOR, "#seat-join-tables .tile[aria-pressed='true']")]
        if suggested != [str(ids["T2"]), str(ids["T3"])]:
            fail(f"for ten at T1 the floor suggests {suggested}, not T2 and T3")
        if "12 plazas para 10 comensales" not in host.find_element(By.ID, "seat-join-sum").text:
            fail(f"the join says {host.find_element(By.ID, 'seat-join-sum').text!r}")
        go = host.find_element(By.ID, "seat-join-go")
        if go.text != "Sentar en T1 + T2 + T3":
            fail(f"the seat button says {go.text!r}")
        if SHOTS:
            host.save_screenshot(os.path.join(SHOTS, "sala-unir.png"))
        go.click()
        wait.until(EC.invisibility_of_element_located((By.ID, "seat")))
        floor = {m["nombre"]: m for m in server.call("GET", "/mesas", token=server.token)[1]["mesas"]}
        if floor["T1"]["comensales"] != 10 or floor["T2"]["unida_a"] != ids["T1"] or floor["T3"]["unida_a"] != ids["T1"]:
            fail(f"ten were not seated at T1 with T2 and T3 joined: {[floor[n] for n in ['T1', 'T2', 'T3']]}")
        # The host is not offered to move a check (a waiter's move); the waiter moves the party to the terrace.
        tile(host, ids["T1"]).click()
        wait.until(EC.visibility_of_element_located((By.ID, "table")))
        if host.find_elements(By.XPATH, "//div[@id='table-actions']/button[normalize-space()='Mover']"):
            fail("the host is offered to move a check")
        host.find_element(By.XPATH, "//div[@id='table-actions']/button[normalize-space()='Volver']").click()
        other.until(lambda d: "ocupada" in tile(d, ids["T1"]).get_attribute("class"))
        tile(waiter, ids["T1"]).click()
        other.until(EC.visibility_of_element_located((By.ID, "table")))
        waiter.find_element(By.XPATH, "//div[@id='table-actions']/button[normalize-space()='Mover']").click()
        other.until(lambda d: d.find_element(By.CSS_SELECTOR, f"#table-actions .tile[data-id='{ids['E2']}']")).click()
        other.until(lambda d: "ocupada" in tile(d, ids["E2"]).get_attribute("class").split())
        other.until(lambda d: all("por_limpiar" in tile(d, ids[n]).get_attribute("class") for n in ["T1", "T2", "T3"]))
        for n in ["T1", "T2", "T3"]:
            server.call("POST", f"/mesas/{ids[n]}/limpia", token=server.token)

        # Offline: the notice shows while the server is away.
        if SHOTS:
            server.call("POST", f"/mesas/{ids['T3']}/sentar", {"comensales": 2}, token=server.token)
            other.until(lambda d: "ocupada" in tile(d, ids["T3"]).get_attribute("class"))
            waiter.save_screenshot(os.path.join(SHOTS, "sala.png"))
        print(f"sala-check: ok (12 tables in 3 zones in order; the family seated at T2 from the offered list; "
              f"the waiter's tile occupied {pushed * 1000:.0f} ms later without a reload; gone from the host stand; "
              f"Liberar refused while the check has lines; freed when empty and cleaned; ten at T1 joined to the suggested T2 and T3; "
              f"the party moved by the waiter to the terrace, not offered to the host; names as text)")
    finally:
        host.quit()
        waiter.quit()
