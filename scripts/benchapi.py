"""What the benchmark scripts' Python shares: one keep-alive connection to
comanda's JSON API on loopback, and the bench's manager logged in."""
import http.client
import json


class Api:
    def __init__(self, port, login="jefa", password="contraseña-de-carga"):
        self.conn = http.client.HTTPConnection("127.0.0.1", int(port))
        self.token = None
        self.token = self.call("POST", "/sesiones", {"login": login, "password": password})["token"]

    def call(self, method, path, body=None):
        """The JSON answer of one request, with the manager's token."""
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        self.conn.request(method, path, body=None if body is None else json.dumps(body).encode(), headers=headers)
        return json.loads(self.conn.getresponse().read())
