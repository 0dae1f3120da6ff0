#!/usr/bin/env python3
"""impresoras-check.py BINARY [SHOTS_DIR]: the printers on the pages, in a real browser.

Two network printers (scripts/fakeprinter.py: TCP on loopback answering
DLE EOT as a printer does). The manager, on /gestion → Impresoras, adds the
kitchen's and the bar's by typing them in (a bad address refused in
Spanish), makes the kitchen the default station, and taps Prueba: the test
page comes out of the kitchen's printer. The kitchen's printer runs out of
paper and a waiter sends a table: the waiter's phone (390 px) and the
kitchen board show the notice of the ticket waiting; paper back, it prints
and the notices go. On the phone the waiter prints the pre-bill at the bar's
printer (the phone remembers it). axe-core finds no serious fault on the
Impresoras view. Saves impresoras.png in SHOTS_DIR. Servers stopped by PID.
"""
import os
import sys
import time

from axe_selenium_python import Axe
from browsercheck import Server, browser, fail as failed, log_in, waiting
from fakeprinter import FakePrinter
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None


def fail(message):
    failed("impresoras-check", message)


def main():
    cocina, barra = FakePrinter(), FakePrinter()
    env = dict(COMANDA_EMPRESA_NIF="B12345674", COMANDA_EMPRESA_RAZON_SOCIAL="Casa Pepe S.L.", COMANDA_ZONA_HORARIA="Europe/Madrid")
    try:
        with Server(BIN, "jefa", "gerente", "impresoras-1234", **env) as server:
            server.create_staff("luis", "camarero", "sala-1234")
            server.create_staff("cocinero", "cocina", "fogon-1234")
            call, boss = server.call, server.token
            driver = browser()
            try:
                log_in(driver, server.base + "/gestion", "jefa", "impresoras-1234")
                driver.find_element(By.ID, "ver-impresoras").click()
                wait = waiting(driver)
                form = wait.until(lambda d: d.find_element(By.ID, "impresora-form") if d.find_element(By.ID, "impresora-form").is_displayed() else None)

                def add(nombre, host, port):
                    for name, value in [("nombre", nombre), ("host", host), ("puerto", str(port))]:
                        field = form.find_element(By.NAME, name)
                        field.clear()
                        field.send_keys(value)
                    save = form.find_element(By.ID, "impresora-guardar")
                    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", save)
                    save.click()

                add("Cocina", "no es una dirección", cocina.port)
                wait.until(lambda d: "dirección IP" in d.find_element(By.ID, "impresora-error").text)
                add("Cocina", "127.0.0.1", cocina.port)
                wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#impresoras-lista article.impresora")) == 1)
                add("Barra", "127.0.0.1", barra.port)
                wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#impresoras-lista article.impresora")) == 2)
                printers = {p["nombre"]: p["id"] for p in call("GET", "/impresoras", token=boss)[1]}
                station = driver.find_element(By.ID, "estacion-form")
                station.find_element(By.NAME, "nombre").send_keys("Cocina")
                Select(station.find_element(By.NAME, "impresora_id")).select_by_visible_text("Cocina")
                station.find_element(By.NAME, "por_defecto").click()
                add_station = station.find_element(By.XPATH, ".//button[text()='Añadir estación']")
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", add_station)
                add_station.click()
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#estaciones-lista .estacion"))
                estaciones = call("GET", "/estaciones", token=boss)[1]
                if [(e["nombre"], e["impresora_id"], e["por_defecto"]) for e in estaciones] != [("Cocina", printers["Cocina"], True)]:
                    fail(f"the station is {estaciones}")
                card = driver.find_element(By.CSS_SELECTOR, f"#impresoras-lista article[data-id='{printers['Cocina']}']")
                prueba = card.find_element(By.XPATH, ".//button[text()='Prueba']")
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", prueba)
                prueba.click()
                waiting(driver, 15).until(lambda d: any("PRUEBA" in t for t in cocina.tickets()))
                test_page = next(t for t in cocina.tickets() if "PRUEBA" in t)
                if "€ ñ Ñ á é í ó ú" not in test_page:
                    fail(f"the test page does not carry the special characters: {test_page!r}")
                # Out of paper, and a waiter sends a table.
                cocina.paper_out = True
                mesa = call("POST", "/mesas", {"nombre": "T1", "plazas": 4}, boss)[1]["id"]
                waiter_token = call("POST", "/sesiones", {"login": "luis", "password": "sala-1234"})[1]["token"]
                cuenta = call("POST", f"/mesas/{mesa}/sentar", {"comensales": 2}, waiter_token)[1]["id"]
                plato = call("GET", "/platos")[1][0]
                call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": plato["id"], "cantidad": 2}, waiter_token)
                call("POST", f"/cuentas/{cuenta}/enviar", {}, waiter_token)
                wait.until(lambda d: "sin papel" in d.find_element(By.CSS_SELECTOR, f"#impresoras-lista article[data-id='{printers['Cocina']}']").text.lower())
                if SHOTS:
                    driver.save_screenshot(os.path.join(SHOTS, "impresoras.png"))
                axe = Axe(driver)
                axe.inject()
                serious = [f"{v['id']}: {v['help']}" for v in axe.run()["violations"] if v.get("impact") in ("serious", "critical")]
                if serious:
                    fail("axe-core on Impresoras: " + "; ".join(serious))
            finally:
                driver.quit()
            phone, board = browser(390, 844), browser(1280, 800)
            try:
                log_in(phone, server.base + "/camarero", "luis", "sala-1234")
                log_in(board, server.base + "/cocina", "cocinero", "fogon-1234")
                for d in (phone, board):
                    notice = waiting(d, 15).until(lambda x: x.find_element(By.ID, "impresoras-aviso") if x.find_element(By.ID, "impresoras-aviso").is_displayed() else None)
                    if "Impresora Cocina sin papel: 1 ticket esperando" not in notice.text:
                        fail(f"the notice says {notice.text!r}")
                cocina.paper_out = False
                waiting(board, 20).until(lambda d: any("2 x " + plato["nombre"] in t for t in cocina.tickets()))
                for d in (phone, board):
                    waiting(d, 15).until(lambda x: not x.find_element(By.ID, "impresoras-aviso").is_displayed())
                # The pre-bill at the bar's printer, chosen on the phone.
                phone.get(server.base + f"/camarero#mesa-{mesa}")
                waiting(phone).until(lambda d: d.find_element(By.ID, "prebill").is_displayed())
                phone.find_element(By.ID, "prebill").click()
                waiting(phone).until(lambda d: d.find_element(By.ID, "ticket-imprimir-en").is_displayed())
                Select(phone.find_element(By.ID, "ticket-impresora")).select_by_visible_text("Barra")
                phone.find_element(By.ID, "ticket-a-impresora").click()
                waiting(phone, 15).until(lambda d: any("Documento no v" in t for t in barra.tickets()))
                if phone.execute_script("return localStorage.getItem('comanda.impresora')") != str(printers["Barra"]):
                    fail("the phone does not remember the printer chosen")
            finally:
                phone.quit()
                board.quit()
    finally:
        cocina.stop()
        barra.stop()
    print("impresoras-check: ok (two printers added on /gestion, a bad address refused in Spanish; the kitchen's the default station; "
          "the test page with € ñ and accents printed; paper out: the notice on the waiter's phone and the kitchen board, gone once it printed; "
          "the pre-bill printed at the bar's printer chosen on the phone, remembered; axe clean)")


if __name__ == "__main__":
    main()
