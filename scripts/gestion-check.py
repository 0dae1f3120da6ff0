#!/usr/bin/env python3
"""gestion-check.py BINARY [SCREENSHOT]: the menu management page in a real browser.

Headless Chromium through WebDriver (selenium, Debian's chromium and
chromium-driver). Starts comanda on a free loopback port with a throw-away
database, makes a manager with `create-staff`, and as that manager on
/gestion: sees the notice that the backups' folder (a USB disk not plugged
in) failed, creates a dish with two allergens, an ingredient and a photo
uploaded from the device (checked through GET /platos?q= and the photo's
bytes), sees a name clash shown beside the name field, marks the dish sold
out, and retires it after the confirmation. A name like an HTML attack shows
as text. Saves a screenshot. The server is stopped by its PID.
"""
import base64
import os
import struct
import sys
import time
import zlib

from browsercheck import Server, browser, fail as failed, log_in, waiting
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.print_page_options import PrintOptions
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOT = sys.argv[2] if len(sys.argv) > 2 else None
HOSTILE = "<img src=x onerror=alert(1)>"


def fail(message):
    failed("gestion-check", message)


def png(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes([200, 60 + (y * 3) % 150, 40]) * width for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    # The backups' folder is a USB disk not plugged in: the manager is told on every tab.
    with Server(BIN, "gerente1", "gerente", "carta-1234", COMANDA_EMPRESA_NIF="B12345674",
                COMANDA_COPIAS_CARPETAS="/media/usb-que-no-esta") as server:
        check(server)


def check(server):
    driver = None
    try:
        base, token, call = server.base, server.token, server.call
        call("POST", "/platos", {"nombre": HOSTILE, "descripcion": "", "precio": 3, "tipo": "Entrantes"}, token)
        photo_path = os.path.join(server.work, "pisto.png")
        photo = png(160, 120)
        with open(photo_path, "wb") as f:
            f.write(photo)

        driver = browser()
        wait = log_in(driver, base + "/gestion", "gerente1", "carta-1234")

        def press(row_css, label):
            """Taps a row's button as a person would; the list redraws after each change, so a row
            replaced between finding it and the tap is found again."""
            def attempt(d):
                try:
                    d.find_element(By.CSS_SELECTOR, row_css).find_element(By.XPATH, f".//button[text()='{label}']").click()
                    return True
                except (StaleElementReferenceException, NoSuchElementException):
                    return False
            wait.until(attempt)
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#carta .plato")))
        aviso = wait.until(EC.visibility_of_element_located((By.ID, "copias-aviso"))).text
        if "Copias de seguridad" not in aviso or "/media/usb-que-no-esta" not in aviso or "no existe" not in aviso:
            fail(f"the failing backup folder is not told: {aviso!r}")
        if SHOT:
            driver.save_screenshot(os.path.join(os.path.dirname(SHOT) or ".", "gestion-copias.png"))
        hostile = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#carta .plato .nombre")]
        if not any(t.startswith(HOSTILE) for t in hostile) or driver.find_elements(By.CSS_SELECTOR, "#carta img[src='x']"):
            fail("a name was not shown as text")

        def open_new():
            driver.find_element(By.ID, "nuevo").click()
            return wait.until(EC.visibility_of_element_located((By.ID, "editor")))

        editor = open_new()
        editor.find_element(By.NAME, "nombre").send_keys("Pisto manchego")
        editor.find_element(By.NAME, "precio").send_keys("9,50")
        editor.find_element(By.NAME, "tipo").send_keys("Principales")
        editor.find_element(By.NAME, "descripcion").send_keys("Verduras de la huerta pochadas con tomate y huevo frito.")
        for code in ["gluten", "huevos"]:
            editor.find_element(By.CSS_SELECTOR, f"#alergenos input[value='{code}']").click()
        editor.find_element(By.CSS_SELECTOR, "#trazas input[value='lacteos']").click()
        editor.find_element(By.CSS_SELECTOR, "#ingredientes .ing-nombre").send_keys("Calabacín")
        editor.find_element(By.CSS_SELECTOR, "#ingredientes .ing-cantidad").send_keys("200 g")
        editor.find_element(By.ID, "foto").send_keys(photo_path)
        WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "preview").is_displayed())
        editor.find_element(By.ID, "guardar").click()
        wait.until(EC.invisibility_of_element_located((By.ID, "editor")))

        status, found = call("GET", "/platos?q=pisto")
        if status != 200 or len(found) != 1:
            fail(f"GET /platos?q=pisto found {found}")
        dish = found[0]
        if dish["alergenos"] != ["gluten", "huevos"] or dish["trazas"] != ["lacteos"] or dish["precio"] != 9.5:
            fail(f"the dish is not as entered: {dish}")
        if dish["ingredientes"] != [{"nombre": "Calabacín", "cantidad": "200 g"}]:
            fail(f"ingredients: {dish['ingredientes']}")
        if not dish["foto"] or call("GET", dish["foto"], raw=True)[1] != photo:
            fail("the photo did not arrive byte for byte")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f"#carta .plato[data-id='{dish['id']}'] img")))

        # A price that is no number: said in Spanish beside the price, scrolled into view.
        editor = open_new()
        editor.find_element(By.NAME, "nombre").send_keys("Migas")
        editor.find_element(By.NAME, "precio").send_keys("nueve")
        editor.find_element(By.NAME, "tipo").send_keys("Principales")
        editor.find_element(By.ID, "guardar").click()
        beside = WebDriverWait(driver, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "#plato [data-error='precio']").text or None)
        if "precio en euros" not in beside:
            fail(f"the bad price's error is not in Spanish beside the price: {beside!r}")
        visible = driver.execute_script("const r = document.querySelector(\"#plato [data-error='precio']\").getBoundingClientRect();"
                                        "return r.top >= 0 && r.bottom <= window.innerHeight;")
        if not visible:
            fail("the price's error is not scrolled into view")
        editor.find_element(By.CSS_SELECTOR, "[data-close]").click()
        # An allergen ticked as contained and as a trace: named, beside the traces, the trace marked; nothing saved.
        editor = open_new()
        editor.find_element(By.NAME, "nombre").send_keys("Migas")
        editor.find_element(By.NAME, "precio").send_keys("9")
        editor.find_element(By.NAME, "tipo").send_keys("Principales")
        for css in ["#alergenos input[value='gluten']", "#trazas input[value='gluten']", "#trazas input[value='sesamo']"]:
            box = editor.find_element(By.CSS_SELECTOR, css)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
            box.click()
        editor.find_element(By.ID, "guardar").click()
        said = WebDriverWait(driver, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "#plato [data-error='trazas']").text or None)
        marked = [e.text for e in editor.find_elements(By.CSS_SELECTOR, "#trazas label.choca")]
        if not said.startswith("Gluten está marcado en «Contiene» y en «Puede contener trazas de»") or len(marked) != 1 or "gluten" not in marked[0].lower():
            fail(f"an allergen in both lists says {said!r}, marks {marked!r}")
        if call("GET", "/platos?q=migas")[1]:
            fail("the dish with an allergen in both lists was saved")
        if SHOT:
            driver.save_screenshot(os.path.join(os.path.dirname(SHOT) or ".", "gestion-trazas.png"))
        editor.find_element(By.CSS_SELECTOR, "[data-close]").click()

        # A clash is shown beside the name.
        editor = open_new()
        editor.find_element(By.NAME, "nombre").send_keys("PISTO MANCHEGO")
        editor.find_element(By.NAME, "precio").send_keys("4")
        editor.find_element(By.NAME, "tipo").send_keys("Principales")
        editor.find_element(By.ID, "guardar").click()
        beside = WebDriverWait(driver, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "#plato [data-error='nombre']").text or None)
        if "nombre" not in beside.lower():
            fail(f"the clash was not shown beside the name: {beside!r}")
        editor.find_element(By.CSS_SELECTOR, "[data-close]").click()

        # Options and VAT: the steak gets a required Punto and priced extras, and 21 % VAT.
        steak = call("GET", "/platos?q=chuleton")[1][0]
        press(f"#carta .plato[data-id='{steak['id']}']", "Editar")
        editor = wait.until(EC.visibility_of_element_located((By.ID, "editor")))

        def tap(element):
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()

        Select = __import__("selenium.webdriver.support.ui", fromlist=["Select"]).Select
        Select(editor.find_element(By.NAME, "iva")).select_by_value("21")
        for nombre, required, most, valores in [("Punto de la carne", True, 1, [("Poco hecho", ""), ("Al punto", "")]),
                                                ("Extras", False, 2, [("Patatas fritas", "3"), ("Pimientos", "abc")])]:
            tap(editor.find_element(By.ID, "add-grupo"))
            grupo = editor.find_elements(By.CSS_SELECTOR, "#grupos .grupo")[-1]
            grupo.find_element(By.CSS_SELECTOR, ".grp-nombre").send_keys(nombre)
            if not required:
                tap(grupo.find_element(By.CSS_SELECTOR, ".grp-obligatorio"))
            most_box = grupo.find_element(By.CSS_SELECTOR, ".grp-max")
            most_box.clear()
            most_box.send_keys(str(most))
            for (v, precio), line in zip(valores, grupo.find_elements(By.CSS_SELECTOR, ".valor")):
                line.find_element(By.CSS_SELECTOR, ".val-nombre").send_keys(v)
                line.find_element(By.CSS_SELECTOR, ".val-precio").send_keys(precio)
        tap(editor.find_element(By.ID, "guardar"))
        # A price that is no number is shown beside the options, in Spanish.
        beside = WebDriverWait(driver, 5).until(lambda d: d.find_element(By.CSS_SELECTOR, "#plato [data-error='opciones']").text or None)
        if "Revise las opciones" not in beside:
            fail(f"a bad option price was not shown beside the options: {beside!r}")
        bad = editor.find_elements(By.CSS_SELECTOR, "#grupos .grupo")[-1].find_elements(By.CSS_SELECTOR, ".val-precio")[1]
        bad.clear()
        bad.send_keys("2,50")
        tap(editor.find_element(By.ID, "guardar"))
        wait.until(EC.invisibility_of_element_located((By.ID, "editor")))
        steak = call("GET", f"/platos/{steak['id']}")[1]
        got = [(g["nombre"], g["min"], g["max"], [(v["nombre"], v["precio"]) for v in g["valores"]]) for g in steak["opciones"]]
        want = [("Punto de la carne", 1, 1, [("Poco hecho", 0), ("Al punto", 0)]), ("Extras", 0, 2, [("Patatas fritas", 3), ("Pimientos", 2.5)])]
        if got != want or steak["iva"] != 21:
            fail(f"the steak's options or VAT are not as entered: {got} iva {steak['iva']}")
        # Opened again, the editor shows them; saved unchanged, their ids stay.
        press(f"#carta .plato[data-id='{steak['id']}']", "Editar")
        editor = wait.until(EC.visibility_of_element_located((By.ID, "editor")))
        if len(editor.find_elements(By.CSS_SELECTOR, "#grupos .grupo")) != 2:
            fail("the editor does not show the steak's two option groups")
        tap(editor.find_element(By.ID, "guardar"))
        wait.until(EC.invisibility_of_element_located((By.ID, "editor")))
        if call("GET", f"/platos/{steak['id']}")[1]["opciones"] != steak["opciones"]:
            fail("saving without changing the options replaced them")

        if SHOT:
            driver.execute_script("document.querySelector(\"#carta .plato[data-id='%d']\").scrollIntoView({block: 'center'})" % dish["id"])
            time.sleep(0.3)
            driver.save_screenshot(SHOT)

        press(f"#carta .plato[data-id='{dish['id']}']", "Marcar agotado")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f"#carta .plato.agotado[data-id='{dish['id']}']")))
        if call("GET", f"/platos/{dish['id']}")[1]["disponible"] is not False:
            fail("the API does not say sold out")

        press(f"#carta .plato[data-id='{dish['id']}']", "Retirar")
        confirm = wait.until(EC.visibility_of_element_located((By.ID, "retirar")))
        if "Pisto manchego" not in confirm.text:
            fail("the confirmation does not name the dish")
        confirm.find_element(By.ID, "retirar-si").click()
        wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, f"#carta .plato[data-id='{dish['id']}']")))
        if call("GET", f"/platos/{dish['id']}")[0] != 404:
            fail("the retired dish is still on the menu")
        # The day's invoices: one paid through the API, voided on the page with a reason.
        status, mesa = call("POST", "/mesas", {"nombre": "T1", "plazas": 2}, token)
        cuenta = call("POST", f"/mesas/{mesa['id']}/sentar", {"comensales": 2}, token)[1]["id"]
        call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": steak["id"], "opciones": [steak["opciones"][0]["valores"][1]["id"]]}, token)
        call("POST", f"/cuentas/{cuenta}/enviar", {}, token)
        status, paid = call("POST", f"/cuentas/{cuenta}/cobros", {"metodo": "tarjeta"}, token)
        if status != 201:
            fail(f"paying the check answered {status}: {paid}")
        numero = paid["factura"]["numero"]
        driver.find_element(By.ID, "ver-facturas").click()
        row = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, f"#facturas-lista tr[data-id='{paid['factura']['id']}']")))
        if numero not in row.text or "45,00 €" not in row.text or "Emitida" not in row.text:
            fail(f"the invoice's row is {row.text!r}")
        press(f"#facturas-lista tr[data-id='{paid['factura']['id']}']", "Anular")
        dialog = wait.until(EC.visibility_of_element_located((By.ID, "anular")))
        dialog.find_element(By.ID, "anular-si").click()
        if "motivo" not in dialog.find_element(By.ID, "anular-error").text:
            fail("voiding without a reason was not stopped")
        dialog.find_element(By.XPATH, ".//button[text()='Importe equivocado']").click()
        dialog.find_element(By.ID, "anular-si").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f"#facturas-lista tr.anulada[data-id='{paid['factura']['id']}']")))
        if call("GET", f"/facturas/{paid['factura']['id']}", token=token)[1]["estado"] != "anulada":
            fail("the API does not say the invoice is voided")
        if call("GET", f"/cuentas/{cuenta}", token=token)[1]["pendiente"] != 45:
            fail("the voided invoice's amount is not owed again")
        # Paid again: the day's dining room has one invoice in force.
        if call("POST", f"/cuentas/{cuenta}/cobros", {"metodo": "efectivo"}, token)[0] != 201:
            fail("paying the check again was refused")
        # Sales: the last 7 days as a bar chart drawn by the page, the dining room and the online orders apart.
        driver.find_element(By.ID, "ver-ventas").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#ventas-grafica svg rect.bar.sala")) == 7)
        figures = driver.find_element(By.ID, "ventas-cifras").text
        if "Ticket medio" not in figures or "En línea" not in figures or "Sala\n45,00 € · 1 factura" not in figures:
            fail(f"the sales figures say {figures!r}")

        # The tables' cards printed: twelve tables, two A4 sheets (six to a sheet, two by three).
        already = len(call("GET", "/mesas", token=token)[1]["mesas"])
        for i in range(12 - already):
            call("POST", "/mesas", {"nombre": f"Impresa {i + 1}", "zona": "Sala", "plazas": 4}, token)
        driver.find_element(By.ID, "ver-mesas").click()
        WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tarjetas .tarjeta")) >= 6 and d.execute_script(
            "return [...document.querySelectorAll('#tarjetas .tarjeta img')].every(i => i.complete && i.naturalWidth > 0)"))
        cards = len(driver.find_elements(By.CSS_SELECTOR, "#tarjetas .tarjeta"))
        options = PrintOptions()
        options.page_width, options.page_height = 21.0, 29.7
        pdf = base64.b64decode(driver.print_page(options))
        pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        if cards != 12 or pages != 2:
            fail(f"{cards} tables' cards print on {pages} A4 pages (six to a sheet: {(cards + 5) // 6})")

        check_personal(driver, wait, press, server)

        # On a phone: Salir is on screen and nothing scrolls sideways.
        phone = browser(390, 844)
        try:
            log_in(phone, base + "/gestion", "gerente1", "carta-1234").until(
                EC.presence_of_element_located((By.CSS_SELECTOR, "#carta .plato")))
            inside = phone.execute_script("const r = document.getElementById('logout').getBoundingClientRect();"
                                          "return r.left >= 0 && r.right <= window.innerWidth && r.width > 40;")
            width = phone.execute_script("return document.documentElement.scrollWidth")
            if not inside or width > 390:
                fail(f"on a phone Salir is cut ({inside}) or the page is {width} px wide")
            # The menu editor's search: words in any order, accents ignored ("pulpo gallega" finds Pulpo a la gallega).
            phone.find_element(By.ID, "buscar-plato").send_keys("PULPO gallega")
            WebDriverWait(phone, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#carta .plato")) == 1)
            found = phone.find_element(By.CSS_SELECTOR, "#carta .plato .nombre").text
            if not found.startswith("Pulpo a la gallega"):
                fail(f"'PULPO gallega' finds {found!r}")
            time.sleep(5.5)   # the list is read again every 5 s: the search holds
            if len(phone.find_elements(By.CSS_SELECTOR, "#carta .plato")) != 1:
                fail("the search was lost when the list was read again")
            phone.find_element(By.ID, "buscar-plato").clear()
            phone.find_element(By.ID, "buscar-plato").send_keys("xyzzy")
            WebDriverWait(phone, 5).until(lambda d: "Ningún plato" in d.find_element(By.ID, "carta").text)
            # The invoices on a phone: the table scrolls in its box, the page never sideways.
            phone.find_element(By.ID, "ver-facturas").click()
            WebDriverWait(phone, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#facturas-lista tr"))
            width = phone.execute_script("return document.documentElement.scrollWidth")
            if width > 390:
                fail(f"the invoices make the page {width} px wide on a phone")
            # Every other view too: no table or form wider than a phone.
            for view in ["ventas", "mesas", "cierre", "verifactu", "impresoras", "personal", "carta"]:
                phone.find_element(By.ID, "ver-" + view).click()
                WebDriverWait(phone, 5).until(lambda d: d.find_element(By.ID, view).is_displayed())
                time.sleep(0.4)
                width = phone.execute_script("return document.documentElement.scrollWidth")
                if width > 390:
                    fail(f"/gestion's {view} view is {width} px wide on a 390 px phone")
        finally:
            phone.quit()
        print("gestion-check: ok (created with two allergens, a trace, an ingredient and a photo; clash shown beside the name; "
              "options (a required group, priced extras) and 21 % VAT set on the steak, a bad price shown beside them; "
              "sold out; retired after confirming; an invoice voided with a reason from the day's list; a bad price said in Spanish beside it; an allergen in both lists named beside the traces; "
              "the week's sales as an SVG bar chart, the dining room's invoices and the online orders apart; Salir on a phone; names as text; the menu editor's search by words in any order; every view within a phone's width; six tables' cards to an A4 sheet; a waiter added, choosing her own password from a one-time code, reset and disabled, her phone logged out each time; the last manager kept)")
    finally:
        if driver:
            driver.quit()


def check_personal(driver, wait, press, server):
    """Staff without a shell: the manager adds a waiter and hands over a one-time code; the waiter
    chooses her own password on her phone; a reset ends her session and gives a new code; disabled,
    her session ends and her password no longer opens; the last manager cannot be disabled."""
    base, call, token = server.base, server.call, server.token
    driver.find_element(By.ID, "ver-personal").click()
    form = wait.until(EC.visibility_of_element_located((By.ID, "persona-form")))
    form.find_element(By.NAME, "nombre").send_keys("Marta Núñez 山田")
    form.find_element(By.NAME, "login").send_keys("marta")
    form.find_element(By.CSS_SELECTOR, "select[name=rol] option[value=camarero]").click()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()

    def code_shown():
        dialog = wait.until(EC.visibility_of_element_located((By.ID, "codigo")))
        code = dialog.find_element(By.ID, "codigo-valor").text
        if "Marta Núñez 山田" not in dialog.text or "marta" not in dialog.text or len(code) != 14:
            fail(f"the one-time code's dialog says {dialog.text!r}")
        return dialog, code
    dialog, code = code_shown()
    if SHOT:
        driver.save_screenshot(os.path.join(os.path.dirname(SHOT) or ".", "gestion-codigo.png"))
    dialog.find_element(By.CSS_SELECTOR, "button[data-close]").click()
    marta = next(p for p in call("GET", "/personal", token=token)[1] if p["login"] == "marta")
    if marta["rol"] != "camarero" or not marta["password_temporal"]:
        fail(f"the new waiter is {marta}")
    card = f"#personal-lista .persona[data-id='{marta['id']}']"
    said = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, card))).text
    if "Sin estrenar" not in said or "Su código vale hasta el" not in said:
        fail(f"the card does not say she has not chosen her password, nor until when her code works: {said!r}")

    phone = browser(390, 844)
    try:
        pwait = waiting(phone)

        def log_in_first_time(code, own):
            phone.get(base + "/camarero")
            login = pwait.until(EC.visibility_of_element_located((By.ID, "login")))
            login.find_element(By.NAME, "login").send_keys("marta")
            login.find_element(By.NAME, "password").send_keys(code)
            login.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            new = pwait.until(EC.visibility_of_element_located((By.NAME, "nueva")))
            new.send_keys(own)
            login.find_element(By.NAME, "repetida").send_keys(own + "x")
            login.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            if "no coinciden" not in pwait.until(lambda d: d.find_element(By.ID, "login-error").text or False):
                fail("two different new passwords were not caught")
            login.find_element(By.NAME, "repetida").clear()
            login.find_element(By.NAME, "repetida").send_keys(own)
            login.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            pwait.until(EC.invisibility_of_element_located((By.ID, "login")))
            if phone.execute_script("return document.body.classList.contains('logged-in')") is not True:
                fail("the waiter is not in after choosing her password")

        def session_ends(what):
            try:
                WebDriverWait(phone, 15).until(EC.visibility_of_element_located((By.ID, "login")))
            except Exception:
                fail(f"{what}: the waiter's page still acts logged in")

        log_in_first_time(code, "bandeja-de-plata")
        if call("POST", "/sesiones", {"login": "marta", "password": "bandeja-de-plata"})[0] != 201:
            fail("her own password does not open")
        # Forgotten: a new code; her phone is logged out.
        press(card, "Nueva contraseña")
        wait.until(EC.visibility_of_element_located((By.ID, "confirmar-persona")))
        driver.find_element(By.ID, "confirmar-persona-si").click()
        dialog, again = code_shown()
        if again == code:
            fail("the reset gave the same code")
        dialog.find_element(By.CSS_SELECTOR, "button[data-close]").click()
        session_ends("after a password reset")
        log_in_first_time(again, "otra-bandeja-22")
        # Disabled: her phone is logged out and her password answers as a wrong one.
        press(card, "Desactivar")
        confirm = wait.until(EC.visibility_of_element_located((By.ID, "confirmar-persona")))
        if "Marta Núñez 山田" not in confirm.text:
            fail(f"the confirmation does not name her: {confirm.text!r}")
        driver.find_element(By.ID, "confirmar-persona-si").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, card + ".inactiva")))
        session_ends("after disabling her")
        login = phone.find_element(By.ID, "login")
        login.find_element(By.NAME, "login").send_keys("marta")
        login.find_element(By.NAME, "password").send_keys("otra-bandeja-22")
        login.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        if "incorrectos" not in pwait.until(lambda d: d.find_element(By.ID, "login-error").text or False):
            fail("a disabled waiter's login is not refused")
    finally:
        phone.quit()
    # The last manager: refused, and said why.
    me = next(p for p in call("GET", "/personal", token=token)[1] if p["login"] == "gerente1")
    press(f"#personal-lista .persona[data-id='{me['id']}']", "Desactivar")
    wait.until(EC.visibility_of_element_located((By.ID, "confirmar-persona")))
    driver.find_element(By.ID, "confirmar-persona-si").click()
    said = wait.until(lambda d: d.find_element(By.ID, "action-error").text or False)
    if "al menos un gerente" not in said:
        fail(f"disabling the last manager says {said!r}")
    if call("GET", "/usuarios/yo", token=token)[0] != 200:
        fail("the last manager was logged out")
    if SHOT:
        driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(os.path.dirname(SHOT) or ".", "gestion-personal.png"))


if __name__ == "__main__":
    main()
