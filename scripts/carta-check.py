#!/usr/bin/env python3
"""carta-check.py BINARY [SHOTS_DIR]: the guests' menu at / on a phone (390x844).

Headless Chromium through WebDriver (selenium, Debian's chromium and
chromium-driver), comanda on a free loopback port with the house menu. The
menu shows by category; a search without accents finds the dishes with them;
"sin gluten" takes away a dish with gluten and keeps one without; an allergen
that is only a trace takes a dish away only when traces are excluded too; a
dish the manager marks sold out shows as sold out; a name like an HTML attack
shows as text; the page never scrolls sideways. Then a table's own page
(/m/{token}, the manager's `enlace`): closed until the table is seated, then
a dish with a note is added from the menu, the waiter sees it (API) and sends
it, and its state on the guest's page changes within 1 s; "Pedir la cuenta"
then shows on the waiter's page (/camarero, in the same browser). Saves
carta.png and mesa.png in SHOTS_DIR. The server is stopped by its PID.
"""
import os
import subprocess
import sys
import time

from browsercheck import Server, browser, fail as failed, log_in, waiting
from selenium.webdriver.common.by import By

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
HOSTILE = "<img src=x onerror=alert(1)>Pan"


def fail(message):
    failed("carta-check", message)


def names(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#carta article .nombre")]


with Server(BIN, "jefa", "gerente", "secreto-de-carta", COMANDA_NOMBRE_RESTAURANTE="Casa Pepe", COMANDA_EMPRESA_NIF="B12345674") as server:
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
        # Words in any order: "pulpo GALLEGA" finds Pulpo a la gallega.
        phone.find_element(By.ID, "q").clear()
        phone.find_element(By.ID, "q").send_keys("pulpo GALLEGA")
        wait.until(lambda d: names(d) == ["Pulpo a la gallega"])
        phone.find_element(By.ID, "q").send_keys(" chocolate")
        wait.until(lambda d: "Ningún plato" in d.find_element(By.ID, "resumen").text)
        phone.find_element(By.ID, "q").clear()
        phone.find_element(By.ID, "q").send_keys(" ")
        wait.until(lambda d: len(names(d)) == total)

        # Sin gluten: the croquetas (gluten) go, the pimientos (none) stay.
        phone.find_element(By.CSS_SELECTOR, "#sin-box summary").click()
        phone.find_element(By.XPATH, "//div[@id='sin']//label[input[@value='gluten']]").click()
        wait.until(lambda d: "Croquetas de jamón" not in names(d))
        if "Pimientos de Padrón" not in names(phone):
            fail("a dish without gluten went away with 'sin gluten'")
        # With the allergens open, the menu they filter stays in sight as the guest scrolls (390x844).
        phone.execute_script("window.scrollBy(0, 700)")
        time.sleep(0.2)
        covered = phone.execute_script("""
            const f = document.querySelector('.filters').getBoundingClientRect();
            const shown = [...document.querySelectorAll('#carta article.plato')].filter(a => {
              const r = a.getBoundingClientRect();
              if (r.bottom <= 0 || r.top >= innerHeight) return false;
              const y = Math.min(Math.max(r.top + 10, 0), innerHeight - 1);
              return a.contains(document.elementFromPoint(r.left + r.width / 2, y));
            });
            return [Math.max(0, Math.min(f.bottom, innerHeight)), shown.length];""")
        if covered[1] < 2 or covered[0] > 844 / 2:
            fail(f"with the allergens open the panel covers {covered[0]:.0f} px of 844 and {covered[1]} dishes are in sight")
        phone.execute_script("window.scrollTo(0, 0)")
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
        # Mis pedidos: back to the menu, then a reload; the order under way is on top, still live, and in the list.
        phone.find_element(By.CSS_SELECTOR, "#estado button[data-close]").click()
        banner = wait.until(lambda d: d.find_element(By.ID, "en-curso"))
        if not banner.is_displayed() or not banner.text.startswith(f"Pedido #{placed['id']}: Aceptado"):
            fail(f"back on the menu the order says {banner.text!r}")
        phone.refresh()
        wait.until(lambda d: d.find_element(By.ID, "en-curso").is_displayed()
                   and f"Pedido #{placed['id']}: Aceptado — listo hacia las" in d.find_element(By.ID, "en-curso").text)
        time.sleep(0.5)   # its stream is open again
        if SHOTS:
            phone.save_screenshot(os.path.join(SHOTS, "carta-en-curso.png"))
        started = time.monotonic()
        if server.call("POST", f"/cocina/pedidos/{placed['id']}/preparado", {}, token=server.token)[0] != 200:
            fail("the kitchen could not mark the order ready")
        waiting(phone, 3, 0.02).until(lambda d: "Preparado" in d.find_element(By.ID, "en-curso").text)
        if time.monotonic() - started >= 1.0:
            fail(f"after a reload the order's new state took {time.monotonic() - started:.2f} s")
        phone.find_element(By.ID, "mis-pedidos-abrir").click()
        wait.until(lambda d: d.find_element(By.ID, "mis-pedidos").is_displayed())
        row = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f"#mis-pedidos-lista button[data-id='{placed['id']}']"))
        if "Preparado" not in row.text or "1 plato" not in row.text or "€" not in row.text:
            fail(f"Mis pedidos lists {row.text!r}")
        if SHOTS:
            phone.save_screenshot(os.path.join(SHOTS, "mis-pedidos.png"))
        row.click()
        wait.until(lambda d: d.find_element(By.ID, "estado").is_displayed()
                   and d.find_element(By.ID, "estado-texto").get_attribute("data-estado") == "preparado")
        phone.find_element(By.CSS_SELECTOR, "#estado button[data-close]").click()
        width = phone.execute_script("return document.documentElement.scrollWidth")
        if width > 390:
            fail(f"the menu scrolls sideways on a phone: {width} px")

        # The table's own page, from the link the manager prints as a QR code.
        status, mesa = server.call("POST", "/mesas", {"nombre": "T5", "zona": "Terraza", "plazas": 4}, token=server.token)
        if status != 201 or not mesa.get("enlace", "").startswith("/m/"):
            fail(f"creating a table answered {status} {mesa}")
        # The guest "scans" the card: zbarimg reads the QR code the manager prints, and the phone opens what it says.
        status, png = server.call("GET", f"/mesas/{mesa['id']}/qr.png", token=server.token, raw=True)
        qr_path = os.path.join(server.work, "mesa-qr.png")
        with open(qr_path, "wb") as f:
            f.write(png)
        scanned = subprocess.run(["zbarimg", "--quiet", "--raw", qr_path], capture_output=True, text=True).stdout.strip()
        if status != 200 or scanned != server.base + mesa["enlace"]:
            fail(f"the table's QR code ({status}) reads {scanned!r}, not {server.base + mesa['enlace']!r}")
        phone.get(scanned)
        wait.until(lambda d: d.find_element(By.ID, "mesa-nombre").text == "T5" and len(names(d)) > 40)
        if "cuando el camarero abra la mesa" not in phone.find_element(By.ID, "mesa-estado").text:
            fail(f"the unseated table's page says {phone.find_element(By.ID, 'mesa-estado').text!r}")
        if any(b.is_displayed() for b in phone.find_elements(By.CSS_SELECTOR, "#carta button.add")):
            fail("dishes can be added at a table nobody is seated at")
        status, cuenta = server.call("POST", f"/mesas/{mesa['id']}/sentar", {"comensales": 2}, token=server.token)
        if status != 201:
            fail(f"seating the table answered {status}")
        croquetas = server.call("GET", "/platos?q=croquetas")[1][0]["id"]
        add = phone.find_element(By.CSS_SELECTOR, f"#carta article[data-id='{croquetas}'] button.add")
        wait.until(lambda d: add.is_displayed())
        phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", add)
        add.click()
        wait.until(lambda d: d.find_element(By.ID, "plato").is_displayed())
        phone.find_element(By.ID, "notas").send_keys("<b>sin</b> perejil")
        phone.find_element(By.ID, "mas").click()
        phone.find_element(By.ID, "plato-anadir").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#mesa-lineas li[data-estado='pendiente']"))
        line = phone.find_element(By.CSS_SELECTOR, "#mesa-lineas li").text
        if "2 × Croquetas de jamón" not in line or "«<b>sin</b> perejil»" not in line or "Para el camarero" not in line:
            fail(f"the table's line reads {line!r}")
        seen = server.call("GET", f"/cuentas/{cuenta['id']}", token=server.token)[1]["lineas"]
        if [(l["origen"], l["cantidad"], l["estado"], l["curso"]) for l in seen] != [("cliente", 2, "pendiente", 1)]:
            fail(f"the waiter sees {seen}")
        started = time.monotonic()
        status, _ = server.call("POST", f"/cuentas/{cuenta['id']}/enviar", {}, token=server.token)
        if status != 200:
            fail(f"sending the guests' line answered {status}")
        waiting(phone, 3, 0.02).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#mesa-lineas li[data-estado='marchada']"))
        sent = time.monotonic() - started
        if sent >= 1.0:
            fail(f"the table's page showed the line in the kitchen after {sent:.2f} s (must be under 1 s)")
        if "En cocina" not in phone.find_element(By.CSS_SELECTOR, "#mesa-lineas li").text:
            fail("the sent line does not say it is in the kitchen")
        table_width = phone.execute_script("return document.documentElement.scrollWidth")
        if table_width > 390:
            fail(f"the table's page scrolls sideways on a phone: {table_width} px")
        if SHOTS:
            phone.execute_script("window.scrollTo(0, 0)")
            phone.save_screenshot(os.path.join(SHOTS, "mesa.png"))
        phone.find_element(By.ID, "pide-cuenta").click()
        wait.until(lambda d: d.find_element(By.ID, "pide-cuenta").text == "Cuenta pedida ✓")
        if not server.call("GET", f"/cuentas/{cuenta['id']}", token=server.token)[1]["pide_cuenta"]:
            fail("asking for the bill did not reach the check")
        # The waiter's page (same browser, the manager may wait tables) shows the call on the tile and on the check.
        phone.execute_script("sessionStorage.clear()")
        log_in(phone, server.base + "/camarero", "jefa", "secreto-de-carta")
        tile = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f".tile[data-id='{mesa['id']}'] .calls"))
        if "Pide la cuenta" not in tile.text:
            fail(f"the waiter's tile says {tile.text!r}")
        phone.find_element(By.CSS_SELECTOR, f".tile[data-id='{mesa['id']}']").click()
        wait.until(lambda d: d.find_element(By.ID, "check-calls").is_displayed())
        if "Pide la cuenta" not in phone.find_element(By.ID, "check-calls").text:
            fail("the waiter's check does not show the bill was asked for")
        # Paid and the table freed: the guest still on the table's page is thanked, with the menu, not told it is closed.
        status, paid = server.call("POST", f"/cuentas/{cuenta['id']}/cobros", {"metodo": "tarjeta"}, token=server.token)
        if status != 201 or server.call("POST", f"/mesas/{mesa['id']}/liberar", {}, token=server.token)[0] != 200:
            fail(f"paying and freeing the table answered {status} {paid}")
        phone.get(scanned)
        wait.until(lambda d: d.find_element(By.ID, "mesa-nombre").text == "T5" and len(names(d)) > 40)
        thanks = phone.find_element(By.ID, "mesa-estado").text
        if "Gracias por su visita" not in thanks or "no está abierta" in thanks:
            fail(f"after paying the table's page says {thanks!r}")
        print(f"carta-check: ok ({total} dishes by category; 'jamon' finds {len(found)} with accents; 'pulpo GALLEGA' finds Pulpo a la gallega; sin gluten; traces excluded "
              f"on request; sold out shown; the restaurant's name; names as text; the steak's required option asked; registered, "
              f"checked out, and shown accepted with its time {accepted * 1000:.0f} ms after the kitchen accepted, still after a reload (Mis pedidos, the order under way on top and live); {width} px wide on a 390 px phone; "
              f"the table's QR code read by zbarimg and opened; its page: closed until seated, a dish with a note added, shown in the kitchen {sent * 1000:.0f} ms after the waiter "
              f"sent it, {table_width} px wide; 'Pide la cuenta' on the waiter's tile and check; thanked after paying)")
    finally:
        phone.quit()
