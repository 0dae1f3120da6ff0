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
import time

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
    steak = server.call("GET", "/platos?q=chuleton")[1][0]["id"]
    status, _ = server.call("PUT", f"/platos/{steak}/opciones", {"opciones": [
        {"nombre": "Punto", "min": 1, "max": 1, "valores": [{"nombre": "Poco hecho", "precio": 0}, {"nombre": "Al punto", "precio": 0}]},
        {"nombre": "Extras", "min": 0, "max": 1, "valores": [{"nombre": "Patatas", "precio": 3}]}]}, token=server.token)
    if status != 200:
        fail(f"setting the steak's options answered {status}")
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
        # Ordering: the steak asks for its required option, a new guest registers, checks out, and sees the kitchen accept.
        phone.find_element(By.ID, "trazas").click()
        phone.find_element(By.XPATH, "//div[@id='sin']//label[input[@value='apio']]").click()
        phone.find_element(By.CSS_SELECTOR, "#sin-box summary").click()
        wait.until(lambda d: len(names(d)) == total)
        add = phone.find_element(By.CSS_SELECTOR, f"#carta article[data-id='{steak}'] button.add")
        phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", add)
        add.click()
        wait.until(lambda d: d.find_element(By.ID, "plato").is_displayed())
        phone.find_element(By.ID, "plato-anadir").click()
        if "punto" not in phone.find_element(By.ID, "plato-error").text.lower():
            fail("adding the steak without its required option was not stopped")
        phone.find_element(By.XPATH, "//div[@id='plato-grupos']//label[span[normalize-space()='Al punto']]").click()
        phone.find_element(By.ID, "plato-anadir").click()
        wait.until(lambda d: d.find_element(By.ID, "cuenta").is_displayed())
        phone.find_element(By.XPATH, "//dialog[@id='cuenta']//label[span[normalize-space()='Crear cuenta']]").click()
        form = phone.find_element(By.ID, "cuenta-form")
        form.find_element(By.NAME, "nombre").send_keys("Lucía")
        form.find_element(By.NAME, "login").send_keys("lucia")
        form.find_element(By.NAME, "password").send_keys("una-clave-larga")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: d.find_element(By.ID, "pedido-abrir").is_displayed())
        if "(1)" not in phone.find_element(By.ID, "pedido-abrir").text:
            fail(f"the order bar says {phone.find_element(By.ID, 'pedido-abrir').text!r}")
        phone.find_element(By.ID, "pedido-abrir").click()
        wait.until(lambda d: d.find_element(By.ID, "pedido").is_displayed())
        line = phone.find_element(By.CSS_SELECTOR, "#pedido-lineas li").text
        if "Chuletón" not in line or "Al punto" not in line:
            fail(f"the order's line is {line!r}")
        entrega = phone.find_element(By.ID, "entrega")
        entrega.find_element(By.NAME, "direccion").send_keys("Calle Mayor 1, Madrid")
        entrega.find_element(By.NAME, "telefono").send_keys("+34 600 123 456")
        entrega.find_element(By.ID, "pedir").click()
        wait.until(lambda d: d.find_element(By.ID, "estado-texto").get_attribute("data-estado") == "realizado")
        placed = [p for p in server.call("GET", "/cocina/pedidos", token=server.token)[1]][0]
        started = time.monotonic()
        status, _ = server.call("POST", f"/cocina/pedidos/{placed['id']}/aceptar", {"minutos": 20}, token=server.token)
        if status != 200:
            fail(f"the kitchen's accept answered {status}")
        waiting(phone, 3, 0.02).until(lambda d: d.find_element(By.ID, "estado-texto").text.startswith("Aceptado — listo hacia las"))
        accepted = time.monotonic() - started
        if accepted >= 1.0:
            fail(f"the guest saw the order accepted after {accepted:.2f} s (must be under 1 s)")
        if SHOTS:
            phone.save_screenshot(os.path.join(SHOTS, "pedido.png"))
        width = phone.execute_script("return document.documentElement.scrollWidth")
        if width > 390:
            fail(f"the menu scrolls sideways on a phone: {width} px")
        print(f"carta-check: ok ({total} dishes by category; 'jamon' finds {len(found)} with accents; sin gluten; traces excluded "
              f"on request; sold out shown; the restaurant's name; names as text; the steak's required option asked; registered, "
              f"checked out, and shown accepted with its time {accepted * 1000:.0f} ms after the kitchen accepted; {width} px wide on a 390 px phone)")
    finally:
        phone.quit()
