#!/usr/bin/env python3
"""cierre-check.py BINARY [SCREENSHOT]: the manager closes the day on /gestion in a real browser.

comanda with a company set (Europe/Madrid) and an evening made through the
API as the staff would: a table with a dish discounted 10 % by the manager
and paid in cash with a tip, a table whose flan the house invites, paid by
card in two shares, a line voided by the manager. As the manager on
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
SHOT = sys.argv[2] if len(sys.argv) > 2 else None


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
            if caja["facturas"] != 3 or caja["total_descuentos"] <= 0 or caja["efectivo_en_caja"] <= 0:
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
            if SHOT:
                driver.save_screenshot(SHOT)
        finally:
            driver.quit()
    print(f"cierre-check: ok ({caja['facturas']} invoices, {money(caja['total'])}, cash in the drawer {money(caja['efectivo_en_caja'])}, "
          f"discounts {money(caja['total_descuentos'])}: the page and the CSV equal /informes/caja; axe clean)")


if __name__ == "__main__":
    main()
