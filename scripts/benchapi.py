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


def write_pay_lua(port, out, tables=256):
    """Seats `tables` tables, each with 99 steaks sent, and writes wrk's script
    that pays 0,01 € of them by card, round robin: one invoice and one billing
    record per request (bench-verifactu-backlog.sh, bench-caja.sh)."""
    api = Api(port)
    plato = [p["id"] for p in api.call("GET", "/platos") if p["nombre"] == "Chuletón de ternera"][0]
    cuentas = []
    for i in range(1, tables + 1):
        mesa = api.call("POST", "/mesas", {"nombre": f"T{i}", "zona": "Sala", "plazas": 4})["id"]
        cuenta = api.call("POST", f"/mesas/{mesa}/sentar", {"comensales": 4})["id"]
        api.call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": plato, "cantidad": 99})
        api.call("POST", f"/cuentas/{cuenta}/enviar", {})
        cuentas.append(cuenta)
    with open(out, "w") as f:
        f.write('token = "%s"\ncuentas = {%s}\n' % (api.token, ",".join(map(str, cuentas))))
        f.write('''local counter = 0
request = function()
  counter = counter + 1
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
  return wrk.format("POST", "/cuentas/" .. cuentas[(counter % #cuentas) + 1] .. "/cobros", headers, '{"metodo": "tarjeta", "importe": 0.01}')
end
''')
