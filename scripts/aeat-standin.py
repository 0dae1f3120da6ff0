#!/usr/bin/env python3
"""A stand-in of the AEAT's VERI*FACTU SOAP service, for the tests and the
benchmark (the real one cannot be reached from here): HTTPS on loopback that
refuses any client without a certificate signed by --ca, answering each
RegFactuSistemaFacturacion as the AEAT does (RespuestaSuministro.xsd):

- each record's Huella recomputed from its own fields and the previous
  record's (as the AEAT does): a wrong one is Incorrecto, code 2000;
- a record it already accepted is Incorrecto 3000 with RegistroDuplicado
  (EstadoRegistroDuplicado Correcta), what the AEAT says after a lost answer;
- with --xsd, a request that is not valid against SuministroLR.xsd (xmllint)
  is a SOAP Fault of the client, as the AEAT's "Codigo[4102]";
- TiempoEsperaEnvio is --espera; a request of fewer than 1,000 records that
  comes before it has passed since the last answer is logged as early.

What it answers is steered by the file DIR/modo (read at each request):
  ok | fault-servidor | fault-cliente | http503 | perder (keep the records,
  close without answering: an answer lost) | basura (200 with HTML) |
  rechazar:NUMSERIE[,NUMSERIE…] (Incorrecto 1100 for those) | lento:SECONDS
Every request is logged as a JSON line in DIR/log.jsonl (when, how many
records, incident, what it answered, early or not) and its body kept as
DIR/NNNN.xml; the accepted records are kept in DIR/aceptados.jsonl, so a
restarted stand-in still knows them. It prints "PORT n" once listening.

  aeat-standin.py --cert server.pem --key server.key --ca ca.pem --dir DIR [--port 0] [--espera 1] [--xsd FOLDER]
"""
import argparse
import hashlib
import http.server
import json
import os
import random
import socketserver
import ssl
import string
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

SUM = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroLR.xsd"
SUM1 = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd"
TIKR = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/RespuestaSuministro.xsd"
SOAP = "http://schemas.xmlsoap.org/soap/envelope/"


def q(ns, name):
    return "{%s}%s" % (ns, name)


def text(element, *path):
    for name in path:
        if element is None:
            return ""
        element = element.find(q(SUM1, name))
    return "" if element is None or element.text is None else element.text


def esc(value):
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class State:
    def __init__(self, folder, espera, xsd):
        self.folder = folder
        self.espera = espera
        self.xsd = xsd
        self.lock = threading.Lock()
        self.last_answer = None
        self.count = 0
        path = os.path.join(folder, "aceptados.jsonl")
        self.accepted = set(tuple(json.loads(l)) for l in open(path)) if os.path.exists(path) else set()
        self.new = []
        # The last Huella accepted, to check the chain across requests.
        self.last_huella = None

    def mode(self):
        try:
            return open(os.path.join(self.folder, "modo")).read().strip() or "ok"
        except OSError:
            return "ok"

    def save(self):
        """Appends the records accepted since the last save (one JSON line each)."""
        with open(os.path.join(self.folder, "aceptados.jsonl"), "a") as f:
            f.writelines(json.dumps(key) + "\n" for key in self.new)
        self.new = []

    def log(self, entry):
        with open(os.path.join(self.folder, "log.jsonl"), "a") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")


def huella(kind, record, previous):
    if kind == "Alta":
        fields = [("IDEmisorFactura", text(record, "IDFactura", "IDEmisorFactura")),
                  ("NumSerieFactura", text(record, "IDFactura", "NumSerieFactura")),
                  ("FechaExpedicionFactura", text(record, "IDFactura", "FechaExpedicionFactura")),
                  ("TipoFactura", text(record, "TipoFactura")), ("CuotaTotal", text(record, "CuotaTotal")),
                  ("ImporteTotal", text(record, "ImporteTotal"))]
    else:
        fields = [("IDEmisorFacturaAnulada", text(record, "IDFactura", "IDEmisorFacturaAnulada")),
                  ("NumSerieFacturaAnulada", text(record, "IDFactura", "NumSerieFacturaAnulada")),
                  ("FechaExpedicionFacturaAnulada", text(record, "IDFactura", "FechaExpedicionFacturaAnulada"))]
    fields += [("Huella", previous), ("FechaHoraHusoGenRegistro", text(record, "FechaHoraHusoGenRegistro"))]
    return hashlib.sha256("&".join("%s=%s" % f for f in fields).encode()).hexdigest().upper()


def fault(code, message):
    return ('<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="%s"><env:Body><env:Fault>'
            '<faultcode>env:%s</faultcode><faultstring>%s</faultstring></env:Fault></env:Body></env:Envelope>'
            % (SOAP, code, esc(message))).encode()


def answer(state, body, mode, rejected):
    """The answer to one request (an ElementTree of the envelope) and a summary for the log."""
    request = body.find(q(SOAP, "Body")).find(q(SUM, "RegFactuSistemaFacturacion"))
    head = request.find(q(SUM, "Cabecera"))
    obligado = head.find(q(SUM1, "ObligadoEmision"))
    incidencia = text(head, "RemisionVoluntaria", "Incidencia") == "S"
    lines, states, numbers = [], [], []
    for registro in request.findall(q(SUM, "RegistroFactura")):
        record = registro.find(q(SUM1, "RegistroAlta"))
        kind = "Alta"
        if record is None:
            record, kind = registro.find(q(SUM1, "RegistroAnulacion")), "Anulacion"
        suffix = "" if kind == "Alta" else "Anulada"
        ident = (text(record, "IDFactura", "IDEmisorFactura" + suffix), text(record, "IDFactura", "NumSerieFactura" + suffix),
                 text(record, "IDFactura", "FechaExpedicionFactura" + suffix))
        key = ident + (kind,)
        numbers.append("%s:%s" % (ident[1], kind))
        chain = record.find(q(SUM1, "Encadenamiento"))
        previous = "" if text(chain, "PrimerRegistro") == "S" else text(chain, "RegistroAnterior", "Huella")
        code, description, duplicate = None, None, None
        if key in state.accepted:
            estado, code, description, duplicate = "Incorrecto", 3000, "Registro de facturación duplicado.", "Correcta"
        elif huella(kind, record, previous) != text(record, "Huella"):
            estado, code, description = "Incorrecto", 2000, "El cálculo de la huella suministrada es incorrecta."
        elif ident[1] in rejected:
            estado, code, description = "Incorrecto", 1100, "Valor o tipo incorrecto del campo: NumSerieFactura"
        else:
            estado = "Correcto"
            state.accepted.add(key)
            state.new.append(key)
        if estado != "Incorrecto" or duplicate:
            state.last_huella = text(record, "Huella")
        states.append(estado)
        line = ("<tikR:RespuestaLinea><tikR:IDFactura><tik:IDEmisorFactura>%s</tik:IDEmisorFactura>"
                "<tik:NumSerieFactura>%s</tik:NumSerieFactura><tik:FechaExpedicionFactura>%s</tik:FechaExpedicionFactura>"
                "</tikR:IDFactura><tikR:Operacion><tik:TipoOperacion>%s</tik:TipoOperacion></tikR:Operacion>"
                "<tikR:EstadoRegistro>%s</tikR:EstadoRegistro>" % (esc(ident[0]), esc(ident[1]), esc(ident[2]), kind, estado))
        if code is not None:
            line += "<tikR:CodigoErrorRegistro>%d</tikR:CodigoErrorRegistro><tikR:DescripcionErrorRegistro>%s</tikR:DescripcionErrorRegistro>" % (
                code, esc(description))
        if duplicate:
            line += ("<tikR:RegistroDuplicado><tik:IdPeticionRegistroDuplicado>%s</tik:IdPeticionRegistroDuplicado>"
                     "<tik:EstadoRegistroDuplicado>%s</tik:EstadoRegistroDuplicado></tikR:RegistroDuplicado>"
                     % (time.strftime("%Y%m%d%H%M%S") + "1", duplicate))
        lines.append(line + "</tikR:RespuestaLinea>")
    state.save()
    if all(s == "Incorrecto" for s in states):
        overall = "Incorrecto"
    elif all(s == "Correcto" for s in states):
        overall = "Correcto"
    else:
        overall = "ParcialmenteCorrecto"
    csv = None if overall == "Incorrecto" else "A-" + "".join(random.choice(string.ascii_uppercase + string.digits) for _ in range(14))
    xml = ('<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="%s"><env:Header/><env:Body>'
           '<tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="%s" xmlns:tik="%s">' % (SOAP, TIKR, SUM1))
    if csv:
        xml += "<tikR:CSV>%s</tikR:CSV>" % csv
    xml += ("<tikR:Cabecera><tik:ObligadoEmision><tik:NombreRazon>%s</tik:NombreRazon><tik:NIF>%s</tik:NIF></tik:ObligadoEmision>"
            "</tikR:Cabecera><tikR:TiempoEsperaEnvio>%d</tikR:TiempoEsperaEnvio><tikR:EstadoEnvio>%s</tikR:EstadoEnvio>"
            % (esc(text(obligado, "NombreRazon")), esc(text(obligado, "NIF")), state.espera, overall))
    xml += "".join(lines) + "</tikR:RespuestaRegFactuSistemaFacturacion></env:Body></env:Envelope>"
    return xml.encode(), {"registros": numbers, "incidencia": incidencia, "estados": states, "estado": overall}


def invalid(state, raw):
    """xmllint's complaint when the request's body is not valid against SuministroLR.xsd (None: valid, or no --xsd)."""
    if not state.xsd:
        return None
    try:
        envelope = ET.fromstring(raw)
        inner = envelope.find(q(SOAP, "Body"))[0]
    except Exception as error:  # not XML, or no body: the schema cannot hold it either
        return "not an envelope: %s" % error
    document = ET.tostring(inner, encoding="utf-8", xml_declaration=True)
    check = subprocess.run(["xmllint", "--noout", "--nonet", "--schema", os.path.join(state.xsd, "SuministroLR.xsd"), "-"],
                           input=document, capture_output=True)
    return None if check.returncode == 0 else check.stderr.decode(errors="replace")[-2000:]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, kind="text/xml; charset=utf-8"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        state = self.server.state
        received = time.time()
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with state.lock:
            state.count += 1
            number = state.count
            early = state.last_answer is not None and received < state.last_answer + state.espera
            with open(os.path.join(state.folder, "%04d.xml" % number), "wb") as f:
                f.write(raw)
            mode = state.mode()
            entry = {"n": number, "recibida": received, "temprana": early, "modo": mode,
                     "content_type": self.headers.get("Content-Type"), "soapaction": self.headers.get("SOAPAction")}
            if mode.startswith("lento:"):
                time.sleep(float(mode.split(":", 1)[1]))
                mode = "ok"
            problem = invalid(state, raw)
            if problem:
                entry["invalida"] = problem
                state.log(entry)
                self.send(500, fault("Client", "Codigo[4102].El XML no cumple el esquema. " + problem[:300]))
                return
            if mode == "fault-servidor":
                state.log(entry)
                self.send(500, fault("Server", "Codigo[-1].Error interno en el servidor"))
                return
            if mode == "fault-cliente":
                state.log(entry)
                self.send(500, fault("Client", "Codigo[4104].Error en la cabecera: el NIF del certificado no es el del obligado"))
                return
            if mode == "http503":
                state.log(entry)
                self.send(503, b"<html><body>Servicio no disponible</body></html>", "text/html")
                return
            if mode == "basura":
                state.log(entry)
                self.send(200, b"<html><body>Mantenimiento</body></html>", "text/html")
                return
            rejected = set(mode.split(":", 1)[1].split(",")) if mode.startswith("rechazar:") else set()
            body, summary = answer(state, ET.fromstring(raw), mode, rejected)
            entry.update(summary)
            # With 1,000 waiting a request goes at once, whatever the wait.
            entry["temprana"] = early and len(summary["registros"]) < 1000
            if mode == "perder":
                entry["perdida"] = True
                state.log(entry)
                self.close_connection = True
                self.connection.shutdown(2)
                return
            state.last_answer = time.time()
            entry["respondida"] = state.last_answer
            state.log(entry)
            self.send(200, body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--ca", required=True, help="the authority the clients' certificates must be signed by")
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--espera", type=int, default=1)
    parser.add_argument("--xsd", default=os.environ.get("COMANDA_AEAT_XSD"))
    args = parser.parse_args()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    context.load_verify_locations(args.ca)
    context.verify_mode = ssl.CERT_REQUIRED
    server = Server(("127.0.0.1", args.port), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.state = State(args.dir, args.espera, args.xsd)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
