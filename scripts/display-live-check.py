#!/usr/bin/env python3
"""display-live-check.py BINARY [SCREENSHOT]: the wall display in a real browser.

Headless Chromium through WebDriver (selenium, Debian's chromium and
chromium-driver). Starts comanda on a free loopback port with a throw-away
database, opens /display, and checks:
- parties added through the JSON API and the legacy feed are shown, names as
  text (an HTML-looking name stays text), the ready one in the green list,
  and the footer says `Actualizado HH:MM:SS` in 24-hour form;
- the page listens to /reservations/eventos (the server counts one open stream);
- a party added through the legacy feed appears within 1 s, three times
  (polling every 2 s would miss that most of the time);
- the server is stopped: the "reconnecting" notice shows and the parties stay;
- the server is started again on the same port: the notice goes away by
  itself, the stream is back, and the next party appears within 1 s;
- at 1920×1080 with 28 waiting: at least 12 shown in two columns, the rest
  said as "y N más", nothing scrolls, and the estimate is the quotes' mean.
The server is stopped by its PID.
"""
import re
import sys
import time
import urllib.parse

from browsercheck import Server, browser, fail as failed
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOT = sys.argv[2] if len(sys.argv) > 2 else None
KEY = "clave-de-la-sala-0001"


def fail(message):
    failed("display-live-check", message)


def open_streams(server):
    _, text = server.call("GET", "/metrics", raw=True)
    m = re.search(rb"^comanda_http_open_streams (\d+)", text, re.M)
    return int(m.group(1)) if m else None


def add_and_time(server, driver, name, size):
    """Adds a party through the legacy feed; seconds until the display shows it."""
    status, _ = server.call("POST", f"/queue/{KEY}/{urllib.parse.quote(name)}/{size}", raw=True)
    if status != 201:
        fail(f"the legacy feed answered {status}")
    started = time.monotonic()
    xpath = f"//ol[@id='waiting']/li/span[@class='name'][text()='{name}']"
    try:
        WebDriverWait(driver, 3, poll_frequency=0.02).until(EC.presence_of_element_located((By.XPATH, xpath)))
    except Exception:
        fail(f"{name} did not appear within 3 s")
    return time.monotonic() - started


def main():
    with Server(BIN, "sala", "anfitrion", "contraseña-de-sala", COMANDA_QUEUE_HOST_KEY=KEY) as server:
        driver = browser()
        try:
            check(server, driver)
        finally:
            driver.quit()


def names(driver, list_id):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, f"#{list_id} li span.name")]


def check(server, driver):
    driver.get(server.base + "/display")
    WebDriverWait(driver, 5).until(EC.presence_of_element_located((By.CSS_SELECTOR, "#waiting li.empty")))
    # Nobody ready: a neutral, empty line, never a green bar that reads as "a table is ready".
    empty = driver.find_element(By.CSS_SELECTOR, "#ready li.empty")
    background = empty.value_of_css_property("background-color")
    if empty.text != "Ninguna mesa lista todavía" or background not in ("rgba(0, 0, 0, 0)", "transparent"):
        fail(f"the empty ready list shows {empty.text!r} on {background}")

    # What the display shows: names as text, the ready party in green, a 24-hour clock.
    for name, size in [("Familia García", 4), ("<b>Ana</b> & Luis", 2)]:
        if server.call("POST", "/reservations", {"name": name, "size": size}, server.token)[0] != 201:
            fail("the host could not add a party")
    server.call("POST", f"/queue/{KEY}/{urllib.parse.quote('Zoë Martin')}/3", raw=True)
    server.call("PUT", f"/queue/{KEY}/seat/3", raw=True)
    WebDriverWait(driver, 3).until(lambda d: names(d, "ready") == ["Zoë Martin"])
    if names(driver, "waiting") != ["Familia García", "<b>Ana</b> & Luis"]:
        fail(f"waiting list shows {names(driver, 'waiting')}")
    if driver.find_elements(By.CSS_SELECTOR, "#waiting b"):
        fail("a name was inserted as HTML")
    if "is-ready" not in driver.find_element(By.CSS_SELECTOR, "#ready li").get_attribute("class"):
        fail("the ready party is not marked ready")
    footer = driver.find_element(By.ID, "updated").text
    if not re.fullmatch(r"Actualizado [0-2]\d:[0-5]\d:[0-5]\d", footer):
        fail(f"the footer says {footer!r}")
    if SHOT:
        driver.save_screenshot(SHOT)
    deadline = time.monotonic() + 5
    while open_streams(server) != 1:
        if time.monotonic() > deadline:
            fail(f"the page is not listening to its stream (open streams: {open_streams(server)})")
        time.sleep(0.05)

    delays = [add_and_time(server, driver, name, size) for name, size in [("Familia García", 4), ("Zoë", 2), ("山田", 3)]]
    if max(delays) >= 1.0:
        fail(f"a party took {max(delays):.2f} s to appear (pushed should be well under 1 s)")

    server.stop()
    WebDriverWait(driver, 8).until(EC.visibility_of_element_located((By.ID, "notice")))
    if not driver.find_elements(By.XPATH, "//ol[@id='waiting']/li/span[text()='Zoë']"):
        fail("the last data is gone while the server is away")

    server.start()
    restarted = time.monotonic()
    WebDriverWait(driver, 10, poll_frequency=0.05).until(EC.invisibility_of_element_located((By.ID, "notice")))
    recovered = time.monotonic() - restarted
    deadline = time.monotonic() + 8
    while open_streams(server) != 1:
        if time.monotonic() > deadline:
            fail("the page did not listen to its stream again after the restart")
        time.sleep(0.05)
    after = add_and_time(server, driver, "Después", 2)
    if after >= 1.0:
        fail(f"after the restart a party took {after:.2f} s to appear")
    # The rush on the wall at 1920×1080: everyone waiting is there, in two columns, or said ("y N más"); nothing scrolls.
    driver.set_window_size(1920, 1080)
    driver.set_window_size(1920 + 1920 - driver.execute_script("return window.innerWidth"),
                           1080 + 1080 - driver.execute_script("return window.innerHeight"))
    for i in range(24):
        server.call("POST", "/reservations", {"name": f"Grupo {i + 1:02d}", "size": 2 + i % 5}, server.token)
    total = len(server.call("GET", "/reservations")[1]["reservations"]) - len(names(driver, "ready"))
    WebDriverWait(driver, 5).until(lambda d: "Grupo 24" in d.page_source)
    time.sleep(0.3)
    shown = driver.execute_script("return [...document.querySelectorAll('#waiting li:not(.more):not([hidden])')].length")
    more = driver.find_elements(By.CSS_SELECTOR, "#waiting li.more")
    said = int(re.search(r"y (\d+) más", more[0].text).group(1)) if more else 0
    if SHOT:
        driver.save_screenshot(SHOT.replace(".png", "-lleno.png"))
    if shown < 12 or shown + said != total:
        fail(f"at 1920x1080 the wall shows {shown} of {total} waiting and says {said} more")
    if driver.execute_script("return document.documentElement.scrollHeight > window.innerHeight"):
        fail("the wall display scrolls")
    quotes = [p["quotedMinutes"] for p in server.call("GET", "/reservations")[1]["reservations"] if not p["isReady"]]
    expected = max(5, round(sum(quotes) / len(quotes) / 5) * 5)
    estimate = driver.find_element(By.ID, "average").text
    if estimate != f"Espera estimada {expected} min":
        fail(f"the estimate says {estimate!r}, the quotes {expected} min")
    print(f"display-live-check: ok ({shown} of {total} waiting on the wall at 1920x1080, 'y {said} más'; parties shown {', '.join(f'{d * 1000:.0f} ms' for d in delays)} after the feed's answer; "
          f"notice while stopped; recovered {recovered:.1f} s after the restart; then {after * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
