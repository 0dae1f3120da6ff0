#!/usr/bin/env python3
"""cierre-check.py BINARY [SHOTS_DIR]: the manager corrects a check on the waiter's phone and closes the day on /gestion.

comanda with a company set (Europe/Madrid) and an evening made through the
API as the staff would: a table with a dish discounted 10 % by the manager
and paid in cash with a tip, a table whose flan the house invites, paid by
card in two shares, a line voided by the manager. On a phone (390 px) the
manager opens a third table on /camarero and, by tapping, invites a dish,
takes 20 % off another and voids a third, each with a reason chip (the
waiter's phone shows none of these to a waiter). As the manager on
/gestion → Cierre: the day's figures (invoices, total, cash in the drawer,
discounts) equal GET /informes/caja's; by method, VAT, tips, discounts and
voided lines are listed; the CSV for the accountant downloads and its
invoices sum to the same total and VAT. axe-core finds no serious fault.
Headless Chromium (selenium); the server is stopped by its PID.
"""
import csv
import io
import os
import sys
import time

from axe_selenium_python import Axe
from browsercheck import Server, browser, fail as failed, log_in, waiting
from selenium.webdriver.common.by import By

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None


def fail(message):
    failed("cierre-check", message)


def money(euros):
    """As the page writes it (es-ES: 1234,50 €, 12.345,50 €)."""
    whole, cents = f"{euros:.2f}".split(".")
    groups = []
    while len(whole) > 3 and len(whole) + 3 * len(groups) > 4:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    return ".".join([whole] + groups) + "," + cents + " €"


def main():
    env = dict(COMANDA_EMPRESA_NIF="B12345674", COMANDA_EMPRESA_RAZON_SOCIAL="Casa Pepe S.L.", COMANDA_ZONA_HORARIA="Europe/Madrid")
    with Server(BIN, "jefa", "gerente", "cierre-1234", **env) as server:
        server.create_staff("luis", "camarero", "sala-1234")
        boss = server.token
        waiter = server.call("POST", "/sesiones", {"login": "luis", "password": "sala-1234"})[1]["token"]
        call = server.call
        platos = {p["nombre"]: p["id"] for p in call("GET", "/platos")[1]}
        first, second = list(platos.values())[0], list(platos.values())[1]

        def seat(name):
            mesa = call("POST", "/mesas", {"nombre": name, "plazas": 4}, boss)[1]["id"]
            return call("POST", f"/mesas/{mesa}/sentar", {"comensales": 2}, waiter)[1]["id"]

        # Table 1: two of a dish discounted 10 % (cooked again), paid in cash with a tip.
        c1 = seat("C1")
        l1 = call("POST", f"/cuentas/{c1}/lineas", {"plato_id": first, "cantidad": 2}, waiter)[1]["id"]
        call("POST", f"/cuentas/{c1}/lineas", {"plato_id": second}, waiter)
        call("POST", f"/cuentas/{c1}/enviar", {}, waiter)
        status, body = call("POST", f"/cuentas/{c1}/lineas/{l1}/descuento", {"porcentaje": 10, "motivo": "Se coció de nuevo"}, boss)
        if status != 200:
            fail(f"discount: {status} {body}")
        status, cuenta = call("GET", f"/cuentas/{c1}", token=waiter)
        if status != 200 or "pendiente" not in cuenta:
            fail(f"the check: {status} {cuenta}")
        pend = cuenta["pendiente"]
        status, body = call("POST", f"/cuentas/{c1}/cobros", {"metodo": "efectivo", "propina": 2, "entregado": pend + 10}, waiter)
        if status != 201:
            fail(f"cash payment: {status} {body}")
        # Table 2: the house invites a dish; a line voided; paid by card in two shares.
        c2 = seat("C2")
        l2 = call("POST", f"/cuentas/{c2}/lineas", {"plato_id": second}, waiter)[1]["id"]
        l3 = call("POST", f"/cuentas/{c2}/lineas", {"plato_id": first, "cantidad": 3}, waiter)[1]["id"]
        call("POST", f"/cuentas/{c2}/lineas", {"plato_id": first}, waiter)
        call("POST", f"/cuentas/{c2}/enviar", {}, waiter)
        call("POST", f"/cuentas/{c2}/lineas/{l2}/descuento", {"porcentaje": 100, "motivo": "Cumpleaños"}, boss)
        call("POST", f"/cuentas/{c2}/lineas/{l3}/anular", {"motivo": "Devuelto a cocina"}, boss)
        for _ in range(2):
            status, body = call("POST", f"/cuentas/{c2}/cobros", {"metodo": "tarjeta", "partes": 2}, waiter)
            if status != 201:
                fail(f"card share: {status} {body}")
        # Table 3, corrected on the phone by the manager.
        c3 = seat("C3")
        for plato, n in [(first, 1), (second, 2), (first, 3)]:
            call("POST", f"/cuentas/{c3}/lineas", {"plato_id": plato, "cantidad": n}, waiter)
        call("POST", f"/cuentas/{c3}/enviar", {}, waiter)
        mesa3 = call("GET", f"/cuentas/{c3}", token=waiter)[1]["mesa_id"]
        phone = browser(390, 844)
        try:
            log_in(phone, server.base + "/camarero", "luis", "sala-1234")
            phone.get(server.base + f"/camarero#mesa-{mesa3}")
            waiting(phone).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines li.line")) == 3)
            if phone.find_elements(By.XPATH, "//button[text()='Invitar' or text()='Descuento' or text()='Anular']"):
                fail("a waiter's phone offers the manager's corrections")
            phone.find_element(By.ID, "logout").click() if phone.find_element(By.ID, "logout").is_displayed() else None
            phone.execute_script("sessionStorage.clear()")
            log_in(phone, server.base + "/camarero", "jefa", "cierre-1234")
            phone.get(server.base + f"/camarero#mesa-{mesa3}")
            wait = waiting(phone)
            wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines li.line button")) >= 9)

            def correct(index, action, chip, percent=None):
                line = phone.find_elements(By.CSS_SELECTOR, "#lines li.line")[index]
                button = line.find_element(By.XPATH, f".//button[text()='{action}']")
                phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
                button.click()
                dialog = wait.until(lambda d: d.find_element(By.ID, "ajuste") if d.find_element(By.ID, "ajuste").is_displayed() else None)
                if percent:
                    dialog.find_element(By.XPATH, f".//button[text()='{percent} %']").click()
                dialog.find_element(By.XPATH, f".//button[text()='{chip}']").click()
                dialog.find_element(By.ID, "ajuste-si").click()
                wait.until(lambda d: not d.find_element(By.ID, "ajuste").is_displayed())

            correct(0, "Invitar", "Cumpleaños")
            wait.until(lambda d: "Invitación" in d.find_elements(By.CSS_SELECTOR, "#lines li.line")[0].text)
            correct(1, "Descuento", "Tardó mucho", 20)
            wait.until(lambda d: "Dto. 20 %" in d.find_elements(By.CSS_SELECTOR, "#lines li.line")[1].text)
            if SHOTS:
                phone.save_screenshot(os.path.join(SHOTS, "camarero-descuento.png"))
            correct(2, "Anular", "Devuelto a cocina")
            wait.until(lambda d: "anulada" in d.find_elements(By.CSS_SELECTOR, "#lines li.line")[2].get_attribute("class"))
        finally:
            phone.quit()
        lines = call("GET", f"/cuentas/{c3}", token=boss)[1]["lineas"]
        got = [(l["descuento"] or {}).get("porcentaje") for l in lines], [l["estado"] for l in lines][2]
        if got != ([100, 20, None], "anulada"):
            fail(f"the phone's corrections did not land: {got}")
        status, body = call("POST", f"/cuentas/{c3}/cobros", {"metodo": "tarjeta"}, waiter)
        if status != 201:
            fail(f"paying the corrected check: {status} {body}")
        caja = call("GET", "/informes/caja", token=boss)[1]

        download = os.path.join(server.work, "descargas")
        os.makedirs(download)
        driver = browser()
        try:
            driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": download})
            log_in(driver, server.base + "/gestion", "jefa", "cierre-1234")
            driver.find_element(By.ID, "ver-cierre").click()
            wait = waiting(driver, 15)
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#cierre-total strong"))
            shown = {k: driver.find_element(By.CSS_SELECTOR, f"#cierre-{k} strong").text
                     for k in ["facturas", "total", "efectivo", "total-descuentos"]}
            expected = {"facturas": str(caja["facturas"]), "total": money(caja["total"]), "efectivo": money(caja["efectivo_en_caja"]),
                        "total-descuentos": money(caja["total_descuentos"])}
            if shown != expected:
                fail(f"the close shows {shown}, /informes/caja says {expected}")
            if caja["facturas"] != 4 or caja["total_descuentos"] <= 0 or caja["efectivo_en_caja"] <= 0:
                fail(f"the evening did not make what it should: {caja}")
            text = driver.find_element(By.ID, "cierre").text
            for words in ["Efectivo", "Tarjeta", "Se coció de nuevo", "(invitación)", "Devuelto a cocina", "Propinas por camarero"]:
                if words not in text:
                    fail(f"'{words}' is not on the close:\n{text}")
            driver.find_element(By.ID, "cierre-csv").click()
            for _ in range(50):
                files = [f for f in os.listdir(download) if f.endswith(".csv")]
                if files:
                    break
                time.sleep(0.2)
            else:
                fail("the invoices' CSV did not download")
            rows = list(csv.DictReader(io.StringIO(open(os.path.join(download, files[0]), encoding="utf-8").read())))
            kept = [r for r in rows if r["estado"] == "emitida"]
            total = round(sum(float(r["total"]) for r in kept), 2)
            if len(kept) != caja["facturas"] or abs(total - caja["total"]) > 0.001:
                fail(f"the CSV's {len(kept)} invoices come to {total}, the close to {caja['total']}")
            for part in caja["iva"]:
                key = str(part["iva"]) if part["iva"] in (4, 10, 21) else "otros"
                base = round(sum(float(r["base_" + key]) for r in kept), 2)
                if abs(base - part["base"]) > 0.001:
                    fail(f"the CSV's base at {key} % is {base}, the close's {part['base']}")
            axe = Axe(driver)
            axe.inject()
            serious = [f"{v['id']}: {v['help']}" for v in axe.run()["violations"] if v.get("impact") in ("serious", "critical")]
            if serious:
                fail("axe-core: " + "; ".join(serious))
            if SHOTS:
                driver.save_screenshot(os.path.join(SHOTS, "cierre.png"))
        finally:
            driver.quit()
    print(f"cierre-check: ok (on the manager's phone: an invitation, 20 % off and a void by taps, none offered to a waiter; "
          f"{caja['facturas']} invoices, {money(caja['total'])}, cash in the drawer {money(caja['efectivo_en_caja'])}, "
          f"discounts {money(caja['total_descuentos'])}: the page and the CSV equal /informes/caja; axe clean)")


if __name__ == "__main__":
    main()
