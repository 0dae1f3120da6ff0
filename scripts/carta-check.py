#!/usr/bin/env python3
"""carta-check.py BINARY [SHOTS_DIR]: the guests' menu at / on a phone (390x844).

Headless Chromium through WebDriver (selenium, Debian's chromium and
chromium-driver), comanda on a free loopback port with the house menu. The
menu shows by category; a search without accents finds the dishes with them;
"sin gluten" takes away a dish with gluten and keeps one without; an allergen
that is only a trace takes a dish away only when traces are excluded too; a
dish the manager marks sold out shows as sold out; a name like an HTML attack
shows as text; the page never scrolls sideways. Saves carta.png in SHOTS_DIR.
The server is stopped by its PID.
"""
import os
import sys

from browsercheck import Server, browser, fail as failed, waiting
from selenium.webdriver.common.by import By

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
HOSTILE = "<img src=x onerror=alert(1)>Pan"


def fail(message):
    failed("carta-check", message)


def names(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#carta article .nombre")]


with Server(BIN, "jefa", "gerente", "secreto-de-carta", COMANDA_NOMBRE_RESTAURANTE="Casa Pepe") as server:
    status, _ = server.call("POST", "/platos", {"nombre": HOSTILE, "descripcion": "", "precio": 1.5, "tipo": "Entrantes"}, token=server.token)
    if status != 201:
        fail(f"creating the hostile dish answered {status}")
    tortilla = [p for p in server.call("GET", "/platos?q=tortilla")[1]][0]["id"]
    server.call("PUT", f"/platos/{tortilla}/disponible", {"disponible": False}, token=server.token)
    phone = browser(390, 844)
    try:
        wait = waiting(phone)
        phone.get(server.base + "/")
        wait.until(lambda d: len(names(d)) > 40)
        total = len(names(phone))
        tipos = [a.text for a in phone.find_elements(By.CSS_SELECTOR, "#tipos a")]
        if tipos[:2] != ["Entrantes", "Principales"]:
            fail(f"the categories are {tipos}")
        wait.until(lambda d: d.find_element(By.ID, "restaurant").get_attribute("textContent") == "Casa Pepe")
        if HOSTILE not in names(phone) or phone.find_elements(By.CSS_SELECTOR, "#carta img[src='x']"):
            fail("the hostile name is not shown as text")
        sold = phone.find_element(By.CSS_SELECTOR, f"#carta article[data-id='{tortilla}']")
        if "agotado" not in sold.get_attribute("class") or "Agotado" not in sold.text:
            fail(f"the sold-out dish does not say so: {sold.text!r}")
        if SHOTS:
            phone.save_screenshot(os.path.join(SHOTS, "carta.png"))

        # A search without accents finds the dishes with them.
        phone.find_element(By.ID, "q").send_keys("jamon")
        wait.until(lambda d: len(names(d)) < total)
        found = names(phone)
        if not found or not all("jam" in n.lower() for n in found) or "Croquetas de jamón" not in found:
            fail(f"searching 'jamon' shows {found}")
        phone.find_element(By.ID, "q").clear()
        phone.find_element(By.ID, "q").send_keys(" ")
        wait.until(lambda d: len(names(d)) == total)

        # Sin gluten: the croquetas (gluten) go, the pimientos (none) stay.
        phone.find_element(By.CSS_SELECTOR, "#sin-box summary").click()
        phone.find_element(By.XPATH, "//div[@id='sin']//label[input[@value='gluten']]").click()
        wait.until(lambda d: "Croquetas de jamón" not in names(d))
        if "Pimientos de Padrón" not in names(phone):
            fail("a dish without gluten went away with 'sin gluten'")
        phone.find_element(By.XPATH, "//div[@id='sin']//label[input[@value='gluten']]").click()
        wait.until(lambda d: "Croquetas de jamón" in names(d))
        # Apio is only a trace of the patatas bravas: they stay until traces are excluded too.
        phone.find_element(By.XPATH, "//div[@id='sin']//label[input[@value='apio']]").click()
        wait.until(lambda d: len(names(d)) <= total)
        if "Patatas bravas" not in names(phone):
            fail("a dish with apio only as a trace went away without excluding traces")
        phone.find_element(By.ID, "trazas").click()
        wait.until(lambda d: "Patatas bravas" not in names(d))
        width = phone.execute_script("return document.documentElement.scrollWidth")
        if width > 390:
            fail(f"the menu scrolls sideways on a phone: {width} px")
        print(f"carta-check: ok ({total} dishes by category; 'jamon' finds {len(found)} with accents; sin gluten; traces excluded "
              f"on request; sold out shown; the restaurant's name; names as text; {width} px wide on a 390 px phone)")
    finally:
        phone.quit()
