#!/usr/bin/env python3
"""axe-check.py BINARY: every page of Public/ checked with axe-core in a real browser.

Headless Chromium through WebDriver (selenium) and axe-core (the
axe-selenium-python package from PyPI carries it). One comanda with some of
everything (tables, a seated check with lines, a waiting party, an order),
each page opened as its user would open it, logged in where it asks, and
checked once its data has loaded (and with a dialog open where the page is
mostly dialogs). Fails on any violation of impact serious or critical,
naming the rule and the elements. The server is stopped by its PID.
"""
import os
import sys

from axe_selenium_python import Axe
from browsercheck import Server, browser, fail as failed, log_in, waiting
from selenium.webdriver.common.by import By

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
PASSWORD = "secreto-de-acceso"


def fail(message):
    failed("axe-check", message)


def audit(driver, name, problems):
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    for v in results["violations"]:
        if v.get("impact") in ("serious", "critical"):
            targets = [", ".join(n["target"]) for n in v["nodes"][:3]]
            problems.append(f"{name}: {v['id']} ({v['impact']}): {v['help']} — {targets}")


with Server(BIN, "jefa", "gerente", PASSWORD, COMANDA_EMPRESA_NIF="B12345674") as server:
    for login, rol in [("luis", "camarero"), ("ana", "cocina"), ("sara", "anfitrion")]:
        server.create_staff(login, rol, PASSWORD)
    token = server.token
    plato = server.call("GET", "/platos")[1][0]["id"]
    made = server.call("POST", "/mesas", {"nombre": "T1", "zona": "Sala", "plazas": 4}, token=token)[1]
    mesa, enlace = made["id"], made["enlace"]
    server.call("POST", "/mesas", {"nombre": "T2", "zona": "Terraza", "plazas": 2}, token=token)
    cuenta = server.call("POST", f"/mesas/{mesa}/sentar", {"comensales": 2}, token=token)[1]["id"]
    server.call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": plato, "notas": "sin sal"}, token=token)
    server.call("POST", f"/cuentas/{cuenta}/enviar", {}, token=token)
    party = server.call("POST", "/reservations", {"name": "Familia Núñez", "size": 4}, token=token)[1]
    problems = []
    driver = browser()
    phone = browser(390, 844)
    try:
        wait = waiting(driver)
        # The public pages.
        phone.get(server.base + "/")
        waiting(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#carta article"))
        audit(phone, "/", problems)
        add = phone.find_element(By.CSS_SELECTOR, "#carta article button.add")
        phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", add)
        add.click()
        waiting(phone).until(lambda d: d.find_element(By.ID, "plato").is_displayed())
        audit(phone, "/ (a dish to add)", problems)
        driver.get(server.base + "/acerca")
        audit(driver, "/acerca", problems)
        driver.get(server.base + "/display")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#waiting li"))
        audit(driver, "/display", problems)
        phone.get(server.base + party["guestUrl"])
        waiting(phone).until(lambda d: d.find_element(By.ID, "waiting").is_displayed())
        audit(phone, "/espera/…", problems)
        phone.get(server.base + enlace)
        waiting(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#mesa-lineas li") and d.find_elements(By.CSS_SELECTOR, "#carta article"))
        audit(phone, "/m/… (a table's page)", problems)
        # The staff pages, each logged in as its user, with their data on screen.
        for path, login, ready in [("/anfitrion", "sara", "#parties li[data-id]"), ("/sala", "luis", ".tile"),
                                   ("/cocina", "ana", ".card"), ("/gestion", "jefa", "#carta .plato")]:
            driver.execute_script("sessionStorage.clear()")
            driver.get(server.base + "/acerca")
            driver.execute_script("sessionStorage.clear()")
            log_in(driver, server.base + path, login, PASSWORD).until(lambda d: d.find_elements(By.CSS_SELECTOR, ready))
            audit(driver, path, problems)
        driver.find_element(By.ID, "ver-mesas").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tarjetas .tarjeta img[src]"))
        # The address the cards carry is said, and warned about: 127.0.0.1 (no urlPublica) is no guest's to open.
        direccion, aviso = driver.find_element(By.ID, "mesas-direccion").text, driver.find_element(By.ID, "mesas-direccion-aviso")
        if server.base + "/m/" not in direccion or not aviso.is_displayed() or "datos móviles" not in aviso.text:
            fail(f"the tables' page says {direccion!r} and warns {aviso.text!r}")
        audit(driver, "/gestion (tables and their QR codes)", problems)
        # The staff, and the one-time code's dialog for someone new.
        driver.find_element(By.ID, "ver-personal").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#personal-lista .persona"))
        form = driver.find_element(By.ID, "persona-form")
        form.find_element(By.NAME, "nombre").send_keys("Nadia")
        form.find_element(By.NAME, "login").send_keys("nadia")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: d.find_element(By.ID, "codigo").is_displayed())
        audit(driver, "/gestion (staff, a one-time code)", problems)
        driver.find_element(By.CSS_SELECTOR, "#codigo button[data-close]").click()
        # The waiter's phone: the floor, then a table's check.
        waiting(phone)
        log_in(phone, server.base + "/camarero", "luis", PASSWORD).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".tile"))
        audit(phone, "/camarero (floor)", problems)
        phone.get(server.base + f"/camarero#mesa-{mesa}")
        waiting(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#lines li.line"))
        audit(phone, "/camarero (check)", problems)
        pay = phone.find_element(By.ID, "pay")
        phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", pay)
        pay.click()
        waiting(phone).until(lambda d: d.find_element(By.ID, "cobro").is_displayed())
        audit(phone, "/camarero (payment)", problems)
        # The pages as someone not logged in first sees them: the login form.
        driver.execute_script("sessionStorage.clear()")
        driver.get(server.base + "/cocina")
        wait.until(lambda d: d.find_element(By.ID, "login").is_displayed())
        audit(driver, "/cocina (login)", problems)
    finally:
        driver.quit()
        phone.quit()
    if problems:
        fail("serious or critical accessibility violations:\n  " + "\n  ".join(problems))
    print("axe-check: ok (no serious or critical violation on /, /acerca, /display, /espera/…, /anfitrion, /sala, /cocina, "
          "/m/… (a table's page), /gestion with its tables' QR codes and its staff, /camarero's floor, check and payment, a dish to add on /, a login form)")
