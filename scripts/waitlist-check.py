#!/usr/bin/env python3
"""waitlist-check.py BINARY [SHOTS_DIR]: the host stand and the guest's page in a real browser.

Headless Chromium through WebDriver (selenium, Debian's chromium and
chromium-driver). Starts comanda on a free loopback port with a throw-away
database, makes a host with `create-staff`, and: on /anfitrion the host adds
a party and sees its quote and link at once; the guest's page at that link
(a phone-sized window) shows place 1; the host presses *Lista* and the
guest's page shows "¡Su mesa está lista!" without a reload; on another
party's page the guest presses *Ya no vengo*, confirms, and the party leaves
the host's list (counted as gone in the statistics). A name like an HTML
attack shows as text. Saves anfitrion.png and espera.png in SHOTS_DIR.
The server is stopped by its PID.
"""
import os
import sys
import time

from browsercheck import Server, browser, fail as failed, log_in
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
HOSTILE = "<b>Eve</b><img src=x onerror=alert(1)>"


def fail(message):
    failed("waitlist-check", message)


def party_items(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#parties li[data-id]")


def names(driver):
    return [li.find_element(By.CSS_SELECTOR, ".who .name").text for li in party_items(driver)]


# The guests' links start with the restaurant's public address (a guest on mobile data cannot reach the tablet's).
PUBLICA = "https://casa-pepe.example"
with Server(BIN, "sala", "anfitrion", "secreto-de-sala", COMANDA_URL_PUBLICA=PUBLICA) as server:
    # The floor the stand seats at: tables of 2, 4 and 6, made by the manager.
    server.create_staff("jefa", "gerente", "secreto-de-jefa")
    boss = server.call("POST", "/sesiones", {"login": "jefa", "password": "secreto-de-jefa"})[1]["token"]
    for nombre, plazas in [("M6", 6), ("M2", 2), ("M4", 4)]:
        server.call("POST", "/mesas", {"nombre": nombre, "zona": "Sala", "plazas": plazas}, token=boss)
    host = browser()
    guest = browser()
    guest.set_window_size(412, 900)
    try:
        host.set_window_size(1280, 800)
        wait = log_in(host, server.base + "/anfitrion", "sala", "secreto-de-sala")
        if host.execute_script("return window.innerHeight") > 800:
            fail("the host's window is taller than 800 px")
        # Two parties already waiting, one of them named like an attack.
        for name, size in [("Familia Núñez", 4), (HOSTILE, 2)]:
            status, _ = server.call("POST", "/reservations", {"name": name, "size": size}, token=server.token)
            if status != 201:
                fail(f"adding {name} answered {status}")
        wait.until(lambda d: len(party_items(d)) == 2)
        if HOSTILE not in names(host):
            fail(f"the hostile name is not shown as text: {names(host)}")

        # The host adds a party and sees its quote and link at once.
        field = host.find_element(By.ID, "add-name")
        field.send_keys("Ana María")
        host.find_element(By.ID, "size-more").click()
        host.find_element(By.ID, "add-go").click()
        card = wait.until(EC.visibility_of_element_located((By.ID, "added")))
        if "Ana María" not in card.find_element(By.ID, "added-name").text or "3 personas" not in card.text:
            fail(f"the new party's card says {card.text!r}")
        quote = card.find_element(By.ID, "added-quote").text
        if quote != "20 min":
            fail(f"with one party of 3-4 ahead and no history the quote is 20 min; shows {quote!r}")
        link = card.find_element(By.ID, "added-link").get_attribute("href")
        if not link.startswith(PUBLICA + "/espera/") or not card.find_element(By.ID, "added-basis").text:
            fail(f"no guest link from urlPublica ({link!r}) or no basis on the card: {card.text!r}")
        if card.find_element(By.ID, "added-link").text != link:
            fail(f"the link shown is not the one given: {card.find_element(By.ID, 'added-link').text!r}")
        # At 1280×800, the link and Compartir are on screen without scrolling.
        for element_id in ["added-link", "share"]:
            inside = host.execute_script(
                "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                "return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;", element_id)
            if not inside:
                fail(f"#{element_id} is not visible without scrolling at 1280x800")
        card.find_element(By.ID, "share").click()
        WebDriverWait(host, 5).until(lambda d: d.find_element(By.ID, "share-result").text)
        wait.until(lambda d: "Ana María" in names(d))

        # The guest's page at that link (the public name is the proxy's; here the server itself): third in line, by arrival.
        guest.get(server.base + link[len(PUBLICA):])
        gwait = WebDriverWait(guest, 10)
        gwait.until(EC.visibility_of_element_located((By.ID, "waiting")))
        if guest.find_element(By.ID, "name").text != "Ana María":
            fail("the guest's page does not show the name")
        position = guest.find_element(By.ID, "position").text
        if position != "3":
            fail(f"Ana María arrived third: the page says place {position!r}")
        # Sentar can be undone for a few seconds: the party comes back and the server never heard of it.
        first = party_items(host)[0]
        undone = first.get_attribute("data-id")
        first.find_element(By.XPATH, ".//button[text()='Sentar']").click()
        wait.until(EC.visibility_of_element_located((By.ID, "sentar")))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#sentar-mesas button.mesa"))
        host.find_element(By.ID, "sentar-sin-mesa").click()
        wait.until(lambda d: undone not in [li.get_attribute("data-id") for li in party_items(d)])
        host.find_element(By.ID, "undo-button").click()
        wait.until(lambda d: undone in [li.get_attribute("data-id") for li in party_items(d)])
        time.sleep(5.5)
        if server.call("GET", f"/reservations/{undone}", token=server.token)[1]["status"] != "waiting":
            fail("a seat undone within the time was sent anyway")
        # The two ahead are seated by the host: the first at a table chosen on the stand (the free ones that hold
        # four, smallest first; the smaller one offered apart), the second without a table on purpose. Ana is place 1.
        first = party_items(host)[0]
        seated_id = int(first.get_attribute("data-id"))
        first.find_element(By.XPATH, ".//button[text()='Sentar']").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#sentar-mesas button.mesa"))
        offered = [b.find_element(By.TAG_NAME, "strong").text for b in host.find_elements(By.CSS_SELECTOR, "#sentar-mesas button.mesa.cabe")]
        smaller = [b.find_element(By.TAG_NAME, "strong").text for b in host.find_elements(By.CSS_SELECTOR, "#sentar-mesas button.mesa.pequena")]
        if offered != ["M4", "M6"] or smaller != ["M2"]:
            fail(f"the stand offers {offered} for four (and {smaller} smaller), not M4, M6 (and M2)")
        host.find_element(By.XPATH, "//div[@id='sentar-mesas']/button[strong[text()='M4']]").click()
        wait.until(EC.invisibility_of_element_located((By.ID, "sentar")))
        wait.until(lambda d: str(seated_id) not in [li.get_attribute("data-id") for li in party_items(d)])
        m4 = next(m for m in server.call("GET", "/mesas", token=boss)[1]["mesas"] if m["nombre"] == "M4")
        if m4["estado"] != "ocupada" or server.call("GET", f"/reservations/{seated_id}", token=server.token)[1]["status"] != "seated":
            fail(f"seating at M4 from the stand left M4 {m4['estado']} and the party {server.call('GET', f'/reservations/{seated_id}', token=server.token)[1]['status']}")
        first = party_items(host)[0]
        first.find_element(By.XPATH, ".//button[text()='Sentar']").click()
        wait.until(EC.visibility_of_element_located((By.ID, "sentar-sin-mesa"))).click()
        gwait.until(lambda d: d.find_element(By.ID, "position").text == "1")
        if "siguiente" not in guest.find_element(By.ID, "ahead").text:
            fail("place 1 does not say it is next")
        if SHOTS:
            guest.save_screenshot(os.path.join(SHOTS, "espera.png"))

        # The host marks it ready: the guest's page shows it without a reload.
        guest.execute_script("window.notReloaded = true")
        ana = [li for li in party_items(host) if "Ana María" in li.text][0]
        started = time.monotonic()
        ana.find_element(By.XPATH, ".//button[text()='Lista']").click()
        gwait.until(EC.visibility_of_element_located((By.ID, "ready")))
        took = time.monotonic() - started
        if not guest.execute_script("return window.notReloaded === true"):
            fail("the guest's page reloaded")
        if "¡Su mesa está lista!" not in guest.find_element(By.ID, "ready").text:
            fail("the ready notice is missing")
        print(f"waitlist-check: the guest saw 'ready' {took:.2f} s after the host pressed Lista")

        # Another party's guest says they are not coming.
        status, bea = server.call("POST", "/reservations", {"name": "Bea", "size": 2}, token=server.token)
        wait.until(lambda d: "Bea" in names(d))
        guest.get(server.base + bea["guestUrl"])
        gwait.until(EC.visibility_of_element_located((By.ID, "leave"))).click()
        dialog = gwait.until(EC.visibility_of_element_located((By.ID, "confirm")))
        dialog.find_element(By.ID, "confirm-yes").click()
        gwait.until(EC.visibility_of_element_located((By.ID, "left")))
        wait.until(lambda d: "Bea" not in names(d))
        status, stats = server.call("GET", "/reservations/estadisticas", token=server.token)
        if stats["abandonos"] != 1:
            fail(f"Bea's leaving is not counted: {stats}")

        # More parties for the picture, one of them late.
        for name, size in [("Grupo Martínez", 6), ("Jo", 1), ("Иван Петров", 2)]:
            server.call("POST", "/reservations", {"name": name, "size": size}, token=server.token)
        wait.until(lambda d: len(party_items(d)) == 4)
        if SHOTS:
            host.execute_script("window.scrollTo(0, 0)")
            time.sleep(0.3)
            host.save_screenshot(os.path.join(SHOTS, "anfitrion.png"))
        # The stand on a 1024x768 tablet, with a party's card open: the panel and the list side by side, neither over
        # the other, and nothing wider than its own box.
        host.set_window_size(1024, 768)
        host.set_window_size(1024 + 1024 - host.execute_script("return window.innerWidth"), 768 + 768 - host.execute_script("return window.innerHeight"))
        host.find_element(By.ID, "add-name").send_keys("Grupo de la boda de Pepe y Marta")
        host.find_element(By.ID, "add-go").click()
        wait.until(EC.visibility_of_element_located((By.ID, "added")))
        overlaps = host.execute_script("""
            const box = (e) => e.getBoundingClientRect();
            const panel = box(document.querySelector('.panel')), list = box(document.querySelector('.list'));
            const out = [];
            if (panel.right > list.left + 0.5) out.push('panel ' + panel.right + ' over list ' + list.left);
            for (const sel of ['#added', '#add']) {
              const b = box(document.querySelector(sel));
              for (const e of document.querySelectorAll(sel + ' button, ' + sel + ' input, ' + sel + ' a')) {
                const r = box(e);
                if (r.width && (r.right > b.right + 0.5 || r.left < b.left - 0.5)) out.push(sel + ' ' + (e.id || e.textContent) + ' ' + r.left + '-' + r.right + ' in ' + b.left + '-' + b.right);
                if (r.width && r.right > list.left + 0.5) out.push(sel + ' ' + (e.id || e.textContent) + ' runs under the list at ' + r.right);
                if (e.tagName === 'BUTTON' && e.scrollWidth > e.clientWidth + 1) out.push('cut: ' + e.textContent);
              }
            }
            for (const who of document.querySelectorAll('#parties .who')) {
              if (who.getBoundingClientRect().width < 200) out.push('a name squeezed to ' + who.getBoundingClientRect().width + ' px: ' + who.textContent);
            }
            return out;""")
        if overlaps:
            fail(f"the host stand at 1024x768: {overlaps}")
        if SHOTS:
            host.execute_script("window.scrollTo(0, 0)")
            host.save_screenshot(os.path.join(SHOTS, "anfitrion-1024.png"))
        print("waitlist-check: ok (and the stand clean at 1024x768)")
    finally:
        host.quit()
        guest.quit()
