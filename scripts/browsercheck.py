"""What the real-browser checks (cocina-check.py, gestion-check.py) share:
a comanda server on a free loopback port with a throw-away database and one
staff user, its JSON API, headless Chromium through WebDriver (selenium with
Debian's chromium and chromium-driver), and a staff page's login.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait


def fail(check, message):
    print(f"{check}: FAIL: {message}")
    sys.exit(1)


class Server:
    """comanda serving a fresh database, with staff `login` of `rol`; stopped by its PID on exit."""

    def __init__(self, binary, login, rol, password, **env):
        self.work = tempfile.mkdtemp()
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.base = f"http://127.0.0.1:{self.port}"
        env.setdefault("COMANDA_LOG_LEVEL", "notice")
        self.env = dict(os.environ, COMANDA_DATABASE=os.path.join(self.work, "check.sqlite"), COMANDA_SCRYPT_LOG_N="10",
                        # Chromium keeps the cores busy: hashing only in idle time would make logins wait.
                        COMANDA_HASH_IN_IDLE_TIME="false", **env)
        with open(os.path.join(self.work, "pw"), "w") as f:
            f.write(password + "\n")
        # It makes the database (and says so on standard error, which a check need not repeat).
        subprocess.run([os.path.abspath(binary), "create-staff", "--crear", login, "--rol", rol, "--password-file", os.path.join(self.work, "pw")],
                       cwd=self.work, env=self.env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.binary = os.path.abspath(binary)
        self.start()
        self.token = self.call("POST", "/sesiones", {"login": login, "password": password})[1]["token"]

    def create_staff(self, login, rol, password):
        """Another member of staff, made as the operator makes one (`comanda create-staff`)."""
        with open(os.path.join(self.work, "pw2"), "w") as f:
            f.write(password + "\n")
        subprocess.run([self.binary, "create-staff", login, "--rol", rol, "--password-file", os.path.join(self.work, "pw2")],
                       cwd=self.work, env=self.env, check=True, stdout=subprocess.DEVNULL)

    def start(self):
        """Starts the server (again, after `stop`: same port, same database) and waits for /health."""
        self.process = subprocess.Popen([self.binary, "serve", "--port", str(self.port)], cwd=self.work, env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.work, "server.log"), "a"))
        for _ in range(100):
            try:
                urllib.request.urlopen(self.base + "/health", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        fail("browsercheck", "the server did not start")

    def call(self, method, path, body=None, token=None, raw=False):
        """(status, JSON or bytes) of one request; `token` defaults to none."""
        request = urllib.request.Request(self.base + path, data=None if body is None else json.dumps(body).encode(), method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                data = response.read()
                return response.status, data if raw else (json.loads(data) if data else None)
        except urllib.error.HTTPError as error:
            data = error.read()
            return error.code, (json.loads(data) if data and not raw else data)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        shutil.rmtree(self.work, ignore_errors=True)


def free_port():
    """A free loopback port (bound, then released)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def browser(width=1280, height=1000):
    """Headless Chromium, 1280×1000 (or the size given, a phone's), Spanish."""
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}", "--lang=es-ES"]:
        options.add_argument(flag)
    if width < 500:
        # A desktop window is never narrower than 500 px: a phone's viewport is emulated instead.
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1, "touch": True}})
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    # The console is kept, so that quitting can tell whether the pages'
    # Content-Security-Policy refused anything they needed.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The tablet's own zone is UTC: the pages must show the restaurant's (a server in Europe/Madrid says so).
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver", env=dict(os.environ, TZ="UTC"))
    driver = webdriver.Chrome(service=service, options=options)
    close = driver.quit

    def quit_checked():
        try:
            entries = driver.get_log("browser")
        except Exception:
            entries = []
        close()
        refused = [e["message"] for e in entries if "Content Security Policy" in e.get("message", "")]
        if refused:
            fail("browsercheck", "the page's Content-Security-Policy refused something it needs: " + refused[0])

    driver.quit = quit_checked
    return driver


def waiting(driver, seconds=10, poll=0.5):
    """A wait that looks again when the page redrew what it was reading (a live page replaces its elements)."""
    return WebDriverWait(driver, seconds, poll_frequency=poll, ignored_exceptions=(StaleElementReferenceException,))


def log_in(driver, url, login, password):
    """Opens a staff page and logs in as a person would; waits until the form is gone."""
    wait = waiting(driver)
    driver.get(url)
    form = wait.until(EC.visibility_of_element_located((By.ID, "login")))
    form.find_element(By.NAME, "login").send_keys(login)
    form.find_element(By.NAME, "password").send_keys(password)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(EC.invisibility_of_element_located((By.ID, "login")))
    return wait
