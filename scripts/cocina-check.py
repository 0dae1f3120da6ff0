#!/usr/bin/env python3
"""cocina-check.py BINARY [SCREENSHOT]: the kitchen board in a real browser.

Headless Chromium driven through WebDriver (selenium, Debian's chromium and
chromium-driver). Starts comanda on a free loopback port with a throw-away
database, makes a cook with `create-staff`, logs in on /cocina as a cook
would, has a customer (named like an HTML attack) place an order through the
API, and checks: the card appears within 3 s, the name shows as text,
*Aceptar* with 15 minutes makes the API say `aceptado` with `listo_estimado`
15 minutes after the move, *Listo* and *Entregado* move it on and off the
board, and the notice shows when the server stops. Saves a screenshot of a
board with several orders. The server is stopped by its PID.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda")
SHOT = sys.argv[2] if len(sys.argv) > 2 else None
HOSTILE = "<img src=x onerror=alert(1)>"


def fail(message):
    print("cocina-check: FAIL:", message)
    sys.exit(1)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def call(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode() or "null")


def main():
    work = tempfile.mkdtemp()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, COMANDA_DATABASE=os.path.join(work, "cocina.sqlite"), COMANDA_SCRYPT_LOG_N="10",
               COMANDA_LOG_LEVEL="notice", TZ="Europe/Madrid")
    with open(os.path.join(work, "pw"), "w") as f:
        f.write("fogones-1234\n")
    subprocess.run([BIN, "create-staff", "cocina1", "--rol", "cocina", "--nombre", "Cocina",
                    "--password-file", os.path.join(work, "pw")], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
    server = subprocess.Popen([BIN, "serve", "--port", str(port)], cwd=work, env=env,
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "server.log"), "w"))
    driver = None
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        _, session = call(base, "POST", "/sesiones", {"login": "cocina1", "password": "fogones-1234"})
        cook = session["token"]
        customers = []
        for i, name in enumerate([HOSTILE, "María José", "山田 太郎", "Олег"]):
            call(base, "POST", "/usuarios", {"nombre": name, "login": f"cliente{i}", "password": "cliente-1234"})
            customers.append(call(base, "POST", "/sesiones", {"login": f"cliente{i}", "password": "cliente-1234"})[1]["token"])

        def place(token, lines):
            _, pedido = call(base, "POST", "/pedidos", {}, token)
            for plato, cantidad in lines:
                call(base, "POST", f"/pedidos/{pedido['id']}/lineas", {"plato_id": plato, "cantidad": cantidad}, token)
            status, placed = call(base, "POST", f"/pedidos/{pedido['id']}/checkout",
                                  {"direccion": "Calle Mayor 1, Madrid", "telefono": "600 123 456"}, token)
            if status != 200:
                fail(f"checkout answered {status}: {placed}")
            return pedido["id"]

        options = webdriver.ChromeOptions()
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000",
                     "--lang=es-ES"]:
            options.add_argument(flag)
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        wait = WebDriverWait(driver, 10)
        driver.get(base + "/cocina")
        form = wait.until(EC.visibility_of_element_located((By.ID, "login")))
        form.find_element(By.NAME, "login").send_keys("cocina1")
        form.find_element(By.NAME, "password").send_keys("fogones-1234")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(EC.visibility_of_element_located((By.ID, "board")))
        wait.until(EC.invisibility_of_element_located((By.ID, "login")))
        time.sleep(0.5)  # the first (empty) list is in

        order = place(customers[0], [(1, 2), (40, 1)])
        placed_at = time.monotonic()
        selector = f"#col-realizado .card[data-id='{order}']"
        WebDriverWait(driver, 3, poll_frequency=0.05).until(EC.presence_of_element_located((By.CSS_SELECTOR, selector)))
        shown_after = time.monotonic() - placed_at
        card = driver.find_element(By.CSS_SELECTOR, selector)
        if card.find_element(By.CLASS_NAME, "who").text != HOSTILE:
            fail("the customer's name is not shown as text")
        if driver.find_elements(By.CSS_SELECTOR, "#board img"):
            fail("a name was inserted as HTML")
        if "nuevo" not in card.get_attribute("class"):
            fail("a new order is not marked as new")

        card.find_element(By.XPATH, ".//button[text()='Aceptar']").click()
        dialog = wait.until(EC.visibility_of_element_located((By.ID, "accept")))
        dialog.find_element(By.XPATH, ".//button[text()='15 min']").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f"#col-aceptado .card[data-id='{order}']")))
        _, pedido = call(base, "GET", f"/cocina/pedidos/{order}", token=cook)
        if pedido["estado"] != "aceptado":
            fail(f"the API says {pedido['estado']}, not aceptado")
        accepted = next(e["fecha"] for e in pedido["eventos"] if e["estado"] == "aceptado")
        iso = "%Y-%m-%dT%H:%M:%SZ"
        promised = (datetime.strptime(pedido["listo_estimado"], iso) - datetime.strptime(accepted, iso)).total_seconds()
        if promised != 15 * 60:
            fail(f"listo_estimado is {promised} s after the move, not 15 minutes")

        driver.find_element(By.CSS_SELECTOR, f"#col-aceptado .card[data-id='{order}']").find_element(By.XPATH, ".//button[text()='Listo']").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f"#col-preparado .card[data-id='{order}']")))
        driver.find_element(By.CSS_SELECTOR, f"#col-preparado .card[data-id='{order}']").find_element(By.XPATH, ".//button[text()='Entregado']").click()
        wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, f".card[data-id='{order}']")))
        if call(base, "GET", f"/cocina/pedidos/{order}", token=cook)[1]["estado"] != "entregado":
            fail("the API does not say entregado")

        # A busy board for the screenshot: new, in preparation (one late), ready.
        others = [place(customers[1], [(2, 1), (9, 2), (41, 2)]), place(customers[2], [(5, 3)]),
                  place(customers[3], [(12, 1), (30, 1), (44, 2)]), place(customers[1], [(20, 2), (36, 1)]),
                  place(customers[2], [(7, 1), (25, 1)])]
        call(base, "POST", f"/cocina/pedidos/{others[0]}/aceptar", {"minutos": 20}, cook)
        call(base, "POST", f"/cocina/pedidos/{others[1]}/aceptar", {"minutos": 1}, cook)
        call(base, "POST", f"/cocina/pedidos/{others[2]}/aceptar", {"minutos": 10}, cook)
        call(base, "POST", f"/cocina/pedidos/{others[2]}/preparado", {}, cook)
        WebDriverWait(driver, 4).until(EC.presence_of_element_located((By.CSS_SELECTOR, f"#col-preparado .card[data-id='{others[2]}']")))
        if SHOT:
            driver.save_screenshot(SHOT)

        # The server goes away: the board keeps its cards and says so.
        server.terminate()
        server.wait(timeout=10)
        WebDriverWait(driver, 6).until(EC.visibility_of_element_located((By.ID, "notice")))
        if not driver.find_elements(By.CSS_SELECTOR, f".card[data-id='{others[0]}']"):
            fail("the last data is gone while offline")
        print(f"cocina-check: ok (new order on the board {shown_after:.2f} s after checkout; accepted 15 min, prepared, "
              f"handed over; name shown as text; notice while offline)")
    finally:
        if driver:
            driver.quit()
        if server.poll() is None:
            server.kill()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
