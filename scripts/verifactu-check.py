#!/usr/bin/env python3
"""verifactu-check.py BINARY [SCREENSHOT]: the manager's VERI*FACTU panel in a real browser.

comanda sends its billing records (envio pruebas) to the AEAT's stand-in
(scripts/aeat-standin.py: HTTPS on loopback that wants a client certificate,
made by scripts/aeat-test-certs.sh). With the stand-in down, two invoices
are paid through the API: on /gestion → VERI*FACTU the manager sees the
notice that the AEAT cannot be reached, 2 records waiting and the next try.
The stand-in comes back, rejecting the third invoice: the panel shows the
records accepted, the rejected one with the AEAT's code and text, and its
notice; the certificate's holder and expiry. axe-core finds no serious
fault on the panel. Headless Chromium (selenium); servers stopped by PID.
"""
import os
import subprocess
import sys

from axe_selenium_python import Axe
from browsercheck import Server, browser, fail as failed, log_in, waiting
from selenium.webdriver.common.by import By

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
SHOT = sys.argv[2] if len(sys.argv) > 2 else None
HERE = os.path.dirname(os.path.abspath(__file__))


def fail(message):
    failed("verifactu-check", message)


class StandIn:
    """The AEAT's stand-in, on a fixed port once it had one; stopped by its PID."""

    def __init__(self, folder, certs, port=0):
        self.folder, self.certs, self.port, self.process = folder, certs, port, None

    def start(self):
        for _ in range(50):
            self.process = subprocess.Popen(
                [sys.executable, os.path.join(HERE, "aeat-standin.py"), "--cert", self.certs + "/server.pem", "--key", self.certs + "/server.key",
                 "--ca", self.certs + "/ca.pem", "--dir", self.folder, "--port", str(self.port), "--espera", "1"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            line = self.process.stdout.readline()
            if line.startswith("PORT "):
                self.port = int(line.split()[1])
                return
            self.process.wait()
            import time
            time.sleep(0.1)
        fail("the AEAT stand-in did not start")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def mode(self, text):
        with open(os.path.join(self.folder, "modo"), "w") as f:
            f.write(text)


def pay(server, n):
    token = server.token
    plato = server.call("GET", "/platos")[1][0]["id"]
    mesa = server.call("POST", "/mesas", {"nombre": f"V{n}", "plazas": 4}, token)[1]["id"]
    cuenta = server.call("POST", f"/mesas/{mesa}/sentar", {"comensales": 2}, token)[1]["id"]
    server.call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": plato, "cantidad": 2}, token)
    server.call("POST", f"/cuentas/{cuenta}/enviar", {}, token)
    status, body = server.call("POST", f"/cuentas/{cuenta}/cobros", {"metodo": "tarjeta"}, token)
    if status != 201:
        fail(f"payment {n}: {status} {body}")
    return body["factura"]["numero"]


def main():
    import tempfile
    work = tempfile.mkdtemp()
    certs, folder = os.path.join(work, "certs"), os.path.join(work, "aeat")
    os.makedirs(folder)
    subprocess.run(["bash", os.path.join(HERE, "aeat-test-certs.sh"), certs], check=True)
    aeat = StandIn(folder, certs)
    aeat.start()
    aeat.stop()   # down: connections refused until it comes back on the same port
    url = f"https://127.0.0.1:{aeat.port}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP"
    env = dict(COMANDA_EMPRESA_NIF="B12345674", COMANDA_EMPRESA_RAZON_SOCIAL="Casa Pepe S.L.", COMANDA_ZONA_HORARIA="Europe/Madrid",
               COMANDA_VERIFACTU_ENVIO="pruebas", COMANDA_VERIFACTU_URL=url, COMANDA_VERIFACTU_CERTIFICADO=certs + "/cliente.p12",
               COMANDA_VERIFACTU_CLAVE="clave-de-prueba", COMANDA_VERIFACTU_CA=certs + "/ca.pem")
    driver = None
    try:
        with Server(BIN, "jefa", "gerente", "caja-1234", **env) as server:
            pay(server, 1)
            pay(server, 2)
            driver = browser()
            wait = log_in(driver, server.base + "/gestion", "jefa", "caja-1234")
            driver.find_element(By.ID, "ver-verifactu").click()
            avisos = lambda d: d.find_element(By.ID, "vf-avisos").text
            waiting(driver, 20).until(lambda d: "No se puede enviar a la AEAT" in avisos(d))
            text = driver.find_element(By.ID, "verifactu").text
            if "entorno de PRUEBAS" not in text or "Sin enviar\n2" not in text or "Próximo envío" not in text:
                fail("while the AEAT is down the panel should say so, with 2 waiting and the next try: " + text)
            if "Casa Pepe S.L. (B12345674)" not in text:
                fail("the certificate's holder is not shown: " + text)
            if SHOT:
                driver.save_screenshot(SHOT.replace(".png", "-caida.png"))

            third = None
            aeat.start()
            aeat.mode("rechazar:T2026-000003")
            third = pay(server, 3)
            waiting(driver, 40).until(lambda d: "Rechazados\n1" in d.find_element(By.ID, "vf-cifras").text
                                      and "Aceptados\n2" in d.find_element(By.ID, "vf-cifras").text)
            row = waiting(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "#vf-rechazados tr td.numero"))
            rows = driver.find_element(By.ID, "vf-rechazados").text
            if third not in rows or "1100" not in rows or "NumSerieFactura" not in rows:
                fail("the rejected record with its code and text should be listed: " + rows)
            waiting(driver, 10).until(lambda d: "1 registro rechazado por la AEAT" in avisos(d))
            if "No se puede enviar" in avisos(driver):
                fail("the AEAT is back, but the panel still says it cannot be reached: " + avisos(driver))
            if "Sin enviar\n0" not in driver.find_element(By.ID, "vf-cifras").text:
                fail("records still waiting: " + driver.find_element(By.ID, "vf-cifras").text)
            axe = Axe(driver)
            axe.inject()
            serious = [f"{v['id']}: {v['help']}" for v in axe.run()["violations"] if v.get("impact") in ("serious", "critical")]
            if serious:
                fail("axe-core: " + "; ".join(serious))
            if SHOT:
                driver.save_screenshot(SHOT)
            del row
    finally:
        if driver:
            driver.quit()
        aeat.stop()
    print("verifactu-check: ok (down: notice and 2 waiting; back: 2 accepted, 1 rejected with code 1100 shown; axe clean)")


if __name__ == "__main__":
    main()
