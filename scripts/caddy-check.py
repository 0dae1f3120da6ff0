#!/usr/bin/env python3
"""caddy-check.py BINARY: comanda behind Caddy (Config/Caddyfile) on loopback, over HTTPS.

`caddy validate` accepts Config/Caddyfile as an owner fills it in (a public
name, an e-mail). Then the real binary (COMANDA_URL_PUBLICA the proxy's
https:// address) runs behind Caddy with that same file, Caddy's internal CA
standing in for Let's Encrypt; every request goes through Caddy from
127.0.0.2 (a guest's phone), checked against the internal CA's root:
a page, an API call, a live stream's first event; comanda's log shows the
guest's 127.0.0.2 (Caddy's X-Forwarded-For, trusted because Caddy is on
127.0.0.1), while a request straight to comanda from 127.0.0.2 with a forged
X-Forwarded-For is logged as 127.0.0.2; a table's QR code read by zbar
carries the https:// address. Servers stopped by their PIDs.
"""
import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time

from browsercheck import Server, fail as failed, free_port

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/comanda"
HERE = os.path.dirname(os.path.abspath(__file__))
CADDYFILE = os.path.join(HERE, "..", "Config", "Caddyfile")


def fail(message):
    failed("caddy-check", message)


class GuestConnection(http.client.HTTPSConnection):
    """HTTPS to the proxy on 127.0.0.1 from 127.0.0.2, the certificate checked for `localhost`."""

    def connect(self):
        sock = socket.socket()
        sock.bind(("127.0.0.2", 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", self.port))
        self.sock = self._context.wrap_socket(sock, server_hostname="localhost")


def main():
    if not shutil.which("caddy"):
        fail("caddy is not installed (apt-get install caddy)")
    env = dict(os.environ, COMANDA_DOMINIO="casa-pepe.es", COMANDA_TLS="dueno@casa-pepe.es")
    checked = subprocess.run(["caddy", "validate", "--config", CADDYFILE, "--adapter", "caddyfile"], env=env, capture_output=True, text=True)
    if checked.returncode != 0 or "Valid configuration" not in checked.stdout + checked.stderr:
        fail(f"caddy validate refuses Config/Caddyfile: {checked.stderr[-1000:]}")

    work = tempfile.mkdtemp()
    https, http_port, admin = free_port(), free_port(), free_port()
    public = f"https://localhost:{https}"
    menv = dict(COMANDA_URL_PUBLICA=public, COMANDA_LOG_LEVEL="info")
    caddy = None
    try:
        with Server(BIN, "jefa", "gerente", "proxy-1234", **menv) as server:
            cenv = dict(os.environ, COMANDA_DOMINIO=f"localhost:{https}", COMANDA_TLS="internal", COMANDA_UPSTREAM=f"127.0.0.1:{server.port}",
                        CADDY_HTTP_PORT=str(http_port), CADDY_HTTPS_PORT=str(https), CADDY_ADMIN=f"localhost:{admin}",
                        XDG_DATA_HOME=os.path.join(work, "data"), XDG_CONFIG_HOME=os.path.join(work, "config"), HOME=work)
            caddy = subprocess.Popen(["caddy", "run", "--config", CADDYFILE, "--adapter", "caddyfile"], env=cenv,
                                     stdout=open(os.path.join(work, "caddy.log"), "w"), stderr=subprocess.STDOUT)
            root = os.path.join(work, "data", "caddy", "pki", "authorities", "local", "root.crt")
            for _ in range(150):
                if os.path.exists(root):
                    try:
                        socket.create_connection(("127.0.0.1", https), timeout=1).close()
                        break
                    except OSError:
                        pass
                time.sleep(0.2)
            else:
                fail("caddy did not start: " + open(os.path.join(work, "caddy.log")).read()[-2000:])
            context = ssl.create_default_context(cafile=root)

            def call(method, path, body=None, token=None):
                for attempt in range(20):   # the first certificate may still be in the making
                    try:
                        conn = GuestConnection("localhost", https, context=context, timeout=10)
                        headers = {"Content-Type": "application/json"} if body is not None else {}
                        if token:
                            headers["Authorization"] = "Bearer " + token
                        conn.request(method, path, body=None if body is None else json.dumps(body).encode(), headers=headers)
                        r = conn.getresponse()
                        data = r.read()
                        conn.close()
                        return r.status, r.getheader("Content-Type") or "", data
                    except (ssl.SSLError, ConnectionError, socket.timeout) as error:
                        last = error
                        time.sleep(0.3)
                fail(f"no HTTPS answer through Caddy: {last}")

            status, kind, page = call("GET", "/camarero")
            if status != 200 or "text/html" not in kind or b"<html" not in page:
                fail(f"the waiter's page through Caddy: {status} {kind}")
            status, _, body = call("POST", "/sesiones", {"login": "jefa", "password": "proxy-1234"})
            if status != 201:
                fail(f"logging in through Caddy: {status} {body[:200]!r}")
            token = json.loads(body)["token"]
            status, _, body = call("POST", "/mesas", {"nombre": "T1", "plazas": 4}, token)
            if status != 201:
                fail(f"an API call through Caddy: {status} {body[:200]!r}")
            mesa = json.loads(body)["id"]
            # A live stream through the proxy: its first event arrives.
            ticket = json.loads(call("POST", "/sesiones/actual/tickets", {}, token)[2])["ticket"]
            conn = GuestConnection("localhost", https, context=context, timeout=10)
            conn.request("GET", f"/mesas/eventos?ticket={ticket}", headers={"Accept": "text/event-stream"})
            stream = conn.getresponse()
            if stream.status != 200 or "text/event-stream" not in (stream.getheader("Content-Type") or ""):
                fail(f"the floor's stream through Caddy: {stream.status}")
            seen = b""
            started = time.time()
            while b"event: mesas" not in seen and time.time() - started < 10:
                seen += stream.fp.read1(4096) if hasattr(stream.fp, "read1") else stream.read(1)
            if b"event: mesas" not in seen:
                fail(f"no event through Caddy within 10 s: {seen[:200]!r}")
            conn.close()
            # The guest's address in comanda's log: from Caddy's X-Forwarded-For (trusted), never from a client's own.
            direct = socket.socket()
            direct.bind(("127.0.0.2", 0))
            direct.connect(("127.0.0.1", server.port))
            direct.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.9\r\nConnection: close\r\n\r\n")
            while direct.recv(4096):
                pass
            direct.close()
            time.sleep(0.5)
            log = open(os.path.join(server.work, "server.log")).read()
            through = [l for l in log.splitlines() if "POST /mesas 201" in l]
            if not through or not through[-1].rstrip().endswith("from 127.0.0.2"):
                fail(f"comanda's log does not show the guest's address behind Caddy: {through[-1:] or log[-500:]}")
            forged = [l for l in log.splitlines() if "GET /health 200" in l]
            if not forged or "198.51.100.9" in forged[-1] or not forged[-1].rstrip().endswith("from 127.0.0.2"):
                fail(f"a forged X-Forwarded-For from a client was believed: {forged[-1:]}")
            # The table's QR code carries the public https:// address.
            status, kind, png = call("GET", f"/mesas/{mesa}/qr.png", token=token)
            if status != 200 or kind != "image/png":
                fail(f"the table's QR code through Caddy: {status} {kind}")
            with open(os.path.join(work, "mesa.png"), "wb") as f:
                f.write(png)
            read = subprocess.run(["zbarimg", "--quiet", "--raw", os.path.join(work, "mesa.png")], capture_output=True, text=True).stdout.strip()
            if not read.startswith(public + "/m/"):
                fail(f"the table's QR code reads {read!r}, not {public}/m/…")
    finally:
        if caddy:
            caddy.terminate()
            try:
                caddy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                caddy.kill()
        shutil.rmtree(work, ignore_errors=True)
    print(f"caddy-check: ok (caddy validate accepts Config/Caddyfile; behind Caddy over HTTPS (its internal CA): a page, an API call, "
          f"the floor's live stream; the guest's 127.0.0.2 in comanda's log from the trusted proxy, a forged X-Forwarded-For not believed; "
          f"the table's QR code carries {public})")


if __name__ == "__main__":
    main()
