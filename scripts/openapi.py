#!/usr/bin/env python3
"""Writes docs/openapi.json, the OpenAPI 3.1 description of comanda's API.

The document is data; this script only keeps it consistent (one error body,
one way to say who may call a route). Edit the routes below, run
`python3 scripts/openapi.py`, and commit both. `.ci/run` fails when the
committed file differs from what this script writes, and
`APIDescriptionTests` holds the document against the router both ways
(paths, methods and `x-roles`).
"""
import json
import os
import sys

ROLES = ["cliente", "anfitrion", "cocina", "camarero", "gerente"]

# Who may call a route: the same four accesses as Sources/ComandaApp/Routes.swift.
ANYONE = "anyone"
USER = "user"


def staff(rol):
    return ("staff", rol)


def staff_of(*roles):
    """Staff of any of these roles, or gerente."""
    return ("staff_of", roles)


def roles_of(access):
    if access == ANYONE:
        return []
    if access == USER:
        return ROLES
    if access[0] == "staff_of":
        return [r for r in ROLES if r in access[1] or r == "gerente"]
    rol = access[1]
    return [rol] if rol == "gerente" else [rol, "gerente"]


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def json_content(schema):
    return {"application/json; charset=utf-8": {"schema": schema}}


TEXT = {"text/plain; charset=utf-8": {"schema": {"type": "string"}}}


def error(description):
    return {"description": description, "content": json_content(ref("Error"))}


def rref(name):
    return {"$ref": f"#/components/responses/{name}"}


RESPONSES = {
    "BadRequest": error("Malformed request: bad JSON, not an object, or a malformed path."),
    "TooLarge": error("The body is over the limit (1 MiB)."),
    "UnsupportedMediaType": error("The body is not `application/json`."),
    "Unprocessable": error("Valid JSON (or query) that breaks a rule; `field` names it."),
    "Unauthorized": {"description": "No valid Bearer token.",
                     "headers": {"WWW-Authenticate": {"required": True, "schema": {"type": "string"}}},
                     "content": json_content(ref("Error"))},
    "Forbidden": error("The caller's role may not do this."),
    "NotFound": error("No such resource (also: someone else's)."),
}


def ok(schema, description="OK", headers=None):
    r = {"description": description, "content": json_content(schema)}
    if headers:
        r["headers"] = headers
    return r


ETAG = {"ETag": {"description": "The representation's tag; `If-None-Match` with it answers 304.",
                 "required": True, "schema": {"type": "string"}}}
NOT_MODIFIED = {"description": "Not modified (the `If-None-Match` tag is current)."}
NO_CONTENT = {"description": "Done; no body."}

INTEGER_ID = {"type": "integer", "minimum": 1, "maximum": 9007199254740991}


def path_param(name, description, schema=None):
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": schema or INTEGER_ID}


def query(name, description, schema):
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


def body(schema, required=True):
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def op(summary, access, responses, params=None, request=None, description=None, links=None, tags=None,
       operation_id=None):
    """One operation, with the error answers every route can give added."""
    o = {"summary": summary, "operationId": operation_id, "tags": tags or []}
    if description:
        o["description"] = description
    o["x-roles"] = roles_of(access)
    if access == ANYONE:
        o["security"] = []
    else:
        o["security"] = [{"bearerAuth": []}]
        who = "any logged-in user" if access == USER else " or ".join(roles_of(access))
        o["description"] = (o.get("description", "") + f"\n\nWho: {who}.").strip()
    if params:
        o["parameters"] = params
    if request:
        o["requestBody"] = request
    r = dict(responses)
    r.setdefault("400", rref("BadRequest"))
    if request:
        r.setdefault("413", rref("TooLarge"))
        r.setdefault("415", rref("UnsupportedMediaType"))
    if request or any(p["in"] == "query" for p in params or []):
        r.setdefault("422", rref("Unprocessable"))
    if access != ANYONE:
        r.setdefault("401", rref("Unauthorized"))
    if access not in (ANYONE, USER):
        r.setdefault("403", rref("Forbidden"))
    if any(p["in"] == "path" for p in params or []):
        r.setdefault("404", rref("NotFound"))
    o["responses"] = dict(sorted(r.items()))
    if links:
        for status, lk in links.items():
            o["responses"][status]["links"] = lk
    return o


def event_stream(events):
    """One event of a stream (schemathesis checks each one it reads): the
    `event` names it may carry, a decimal `id`, one line of JSON as `data`."""
    return {"text/event-stream; charset=utf-8": {"schema": {
        "type": "object", "required": ["event", "id", "data"],
        "properties": {"event": {"type": "string", "enum": events},
                       "id": {"type": "string", "pattern": "^[0-9]+$"},
                       "data": {"type": "string", "minLength": 1, "contentMediaType": "application/json"},
                       "retry": {"type": "integer"}}}}}
TICKET = query("ticket", "A ticket from `POST /sesiones/actual/tickets`, in place of the token (good once, 60 s); "
                         "a used, expired or unknown one is 401, on the public streams too.", {"type": "string"})
LAST_EVENT_ID = {"name": "Last-Event-ID", "in": "header", "required": False,
                 "description": "The last event id seen: the events after it are replayed if the server still has them, "
                                "else the connect event is sent.", "schema": {"type": "string"}}


def stream_op(summary, access, params, events, operation_id):
    """A Server-Sent Events stream: 200 `text/event-stream` (starting with `retry: 3000`), never compressed."""
    o = op(summary, access, {"200": {"description": "The stream: `retry: 3000`, then events with growing `id`s; "
                                                    "a comment line at least every 15 s while idle.",
                                     "headers": {"Cache-Control": {"required": True, "schema": {"type": "string", "const": "no-store"}}},
                                     "content": event_stream(events)},
                             "401": rref("Unauthorized")},
           params=params + [TICKET, LAST_EVENT_ID], tags=["Live"], operation_id=operation_id)
    return o


ALERGENO_CODES = ["gluten", "crustaceos", "huevos", "pescado", "cacahuetes", "soja", "lacteos", "frutos_de_cascara",
                  "apio", "mostaza", "sesamo", "sulfitos", "altramuces", "moluscos"]
ALERGENOS = {"type": "array", "items": {"type": "string", "enum": ALERGENO_CODES}, "uniqueItems": True,
             "description": "Allergen codes, in the regulation's order."}
ESTADOS = ["abierto", "realizado", "aceptado", "preparado", "entregado", "rechazado", "cancelado"]
MONEY = {"type": "number", "minimum": 0, "description": "Euros with at most two decimals, computed from integer cents."}
TIME = {"type": "string", "format": "date-time", "description": "ISO 8601 in UTC with a `Z`."}


def obj(props, required=None, extra=False, description=None):
    s = {"type": "object", "properties": props, "required": sorted(required if required is not None else props.keys()),
         "additionalProperties": extra}
    if description:
        s["description"] = description
    return s


def nullable(schema):
    s = dict(schema)
    t = s.get("type")
    if t:
        s["type"] = [t, "null"]
        s.pop("format", None)
        return {"anyOf": [schema, {"type": "null"}]} if "format" in schema else s
    return {"anyOf": [schema, {"type": "null"}]}


PARTY_STATUS = {"type": "string", "enum": ["waiting", "ready", "seated", "left"]}
RESERVATION = {
    "id": INTEGER_ID, "name": {"type": "string", "minLength": 1}, "size": {"type": "integer", "minimum": 1, "maximum": 50},
    "arrivalTime": TIME, "isReady": {"type": "boolean"}, "readyTime": nullable(TIME), "status": PARTY_STATUS,
    "quotedMinutes": {"type": "integer", "minimum": 0},
    "quoteBasis": {"type": "string", "minLength": 1, "description": "What the quote rests on, one Spanish sentence."},
    "mesa": {"type": ["string", "null"], "description": "The name of the table the party was seated at, else null."},
}
FLOOR = staff_of("anfitrion", "camarero")
WAITERS = staff_of("camarero")
CUENTA_ID = path_param("id", "The check's id.")
FACTURA_ID = path_param("id", "The invoice's id.")
LINEA_ID = path_param("linea", "The line's id (of that check).")
COMANDA_ID = path_param("comanda", "The comanda's id (of that check).")
LINEA_STATES = ["pendiente", "en_espera", "marchada", "preparada", "servida", "anulada"]
COMANDA_STATES = ["en_espera", "marchada", "preparada", "servida"]
CURSO = {"type": "integer", "minimum": 1, "maximum": 5, "description": "1 Primeros, 2 Segundos, 3 Postres, 4 Cuarto, 5 Quinto."}
PERSONA = {"anyOf": [obj({"id": INTEGER_ID, "nombre": {"type": "string"}}), {"type": "null"}]}
MESA_ID = path_param("id", "The table's id.")
MESA_STATES = ["libre", "ocupada", "por_limpiar"]
GUEST_TOKEN = path_param("token", "The guest's token, from `guestUrl`.", {"type": "string"})
TABLE_TOKEN = path_param("token", "The table's token, from the manager's `enlace`.", {"type": "string"})
HTML = {"text/html; charset=utf-8": {"schema": {"type": "string"}}}

SCHEMAS = {
    "Error": obj({
        "error": obj({
            "code": {"type": "string", "pattern": "^[a-z0-9_]+$", "description": "The contract's snake_case code."},
            "message": {"type": "string", "description": "What went wrong, for a person."},
            "field": {"type": "string", "description": "The field at fault; absent when none applies."},
            "estado": {"type": "string", "description": "`transicion_no_valida`: the order's current state."},
            "plato_ids": {"type": "array", "items": INTEGER_ID, "description": "`plato_no_disponible`: the dishes at fault."},
        }, required=["code", "message"]),
    }),
    "Plato": obj({
        "id": INTEGER_ID,
        "nombre": {"type": "string"},
        "descripcion": {"type": "string"},
        "precio": MONEY,
        "tipo": {"type": "string", "description": "The category."},
        "disponible": {"type": "boolean", "description": "false: sold out for now."},
        "alergenos": ALERGENOS,
        "trazas": ALERGENOS,
        "ingredientes": {"type": "array", "items": ref("Ingrediente")},
        "foto": {"type": ["string", "null"], "description": "`/platos/{id}/foto?v=TAG`, or null."},
        "iva": {"type": "integer", "enum": [0, 4, 10, 21], "description": "The VAT rate included in the price."},
        "opciones": {"type": "array", "items": ref("GrupoOpciones")},
    }),
    "GrupoOpciones": obj({
        "id": INTEGER_ID, "nombre": {"type": "string"}, "min": {"type": "integer", "minimum": 0},
        "max": {"type": "integer", "minimum": 0},
        "valores": {"type": "array", "items": obj({"id": INTEGER_ID, "nombre": {"type": "string"}, "precio": MONEY})},
    }, description="A group of a dish's options: a line picks between `min` and `max` of its values."),
    "Ingrediente": obj({"nombre": {"type": "string", "minLength": 1, "maxLength": 100},
                        "cantidad": {"type": "string", "maxLength": 50}}),
    "Alergeno": obj({"codigo": {"type": "string", "enum": ALERGENO_CODES}, "nombre": {"type": "string"}}),
    "Seccion": obj({"tipo": {"type": "string"}, "platos": {"type": "array", "items": ref("Plato")}}),
    "Categoria": obj({"tipo": {"type": "string"}, "descripcion": {"type": "string"},
                      "num_platos": {"type": "integer", "minimum": 1}}),
    "Usuario": obj({"id": INTEGER_ID, "nombre": {"type": "string"}, "login": {"type": "string"}}),
    "UsuarioYo": obj({"id": INTEGER_ID, "nombre": {"type": "string"}, "login": {"type": "string"},
                      "rol": {"type": "string", "enum": ROLES}}),
    "Sesion": obj({"token": {"type": "string", "minLength": 20}, "usuario": ref("UsuarioYo")}),
    "Ticket": obj({"ticket": {"type": "string", "minLength": 20, "description": "Good once, for a stream's `?ticket=`."},
                   "caduca": TIME}),
    "Linea": obj({
        "id": INTEGER_ID, "plato_id": INTEGER_ID, "nombre": {"type": "string"}, "precio_unitario": MONEY,
        "cantidad": {"type": "integer", "minimum": 1, "maximum": 100}, "subtotal": MONEY,
        "opciones": {"type": "array", "items": obj({"grupo": {"type": "string"}, "valor": {"type": "string"}, "precio": MONEY})},
    }, description="A line of an online order: `precio_unitario` is the dish's price plus its options' (frozen when picked)."),
    "Evento": obj({"estado": {"type": "string", "enum": ESTADOS[1:]}, "fecha": TIME}),
    "Pedido": obj({
        "id": INTEGER_ID,
        "estado": {"type": "string", "enum": ESTADOS},
        "fecha": nullable(TIME),
        "direccion": {"type": ["string", "null"]},
        "telefono": {"type": ["string", "null"]},
        "lineas": {"type": "array", "items": ref("Linea")},
        "num_platos": {"type": "integer", "minimum": 0},
        "total": MONEY,
        "listo_estimado": nullable(TIME),
        "motivo": {"type": ["string", "null"]},
        "eventos": {"type": "array", "items": ref("Evento")},
    }),
    "PedidoCocina": {"allOf": [ref("Pedido")], "type": "object", "required": ["cliente"], "properties": {
        "cliente": obj({"id": INTEGER_ID, "nombre": {"type": "string"}}),
    }},
    "ResumenPedido": obj({"id": INTEGER_ID, "fecha": TIME, "total": MONEY, "num_platos": {"type": "integer", "minimum": 0},
                          "estado": {"type": "string", "enum": ESTADOS[1:]}}),
    "Mesa": obj({
        "id": INTEGER_ID, "nombre": {"type": "string", "minLength": 1, "maxLength": 20},
        "zona": {"type": "string", "maxLength": 40}, "plazas": {"type": "integer", "minimum": 1, "maximum": 50},
        "estado": {"type": "string", "enum": MESA_STATES}, "desde": TIME,
        "cuenta_id": {"type": ["integer", "null"], "minimum": 1, "description": "While `ocupada`: its open check."},
        "comensales": {"type": ["integer", "null"], "minimum": 1, "description": "While `ocupada`: the guests (null on a joined table)."},
        "unida_a": {"type": ["integer", "null"], "minimum": 1, "description": "The table it was joined to for one party."},
        "enlace": {"type": "string", "pattern": "^/m/[1-9][0-9]*-[A-Za-z0-9_-]{22}$",
                   "description": "The table's own link (the manager's answers only): `/m/{token}`, 128 random bits."},
    }, required=["id", "nombre", "zona", "plazas", "estado", "desde", "cuenta_id", "comensales", "unida_a"],
       description="A table of the dining room; `enlace` only in the manager's answers."),
    "VistaMesa": obj({
        "mesa": {"type": "string", "description": "The table's name."},
        "cuenta": nullable(obj({
            "lineas": {"type": "array", "items": obj({
                "nombre": {"type": "string"}, "cantidad": {"type": "integer", "minimum": 1, "maximum": 100},
                "opciones": {"type": "array", "items": obj({"grupo": {"type": "string"}, "valor": {"type": "string"}, "precio": MONEY})},
                "notas": {"type": ["string", "null"],
                          "description": "The notes of a line the guests added; null on the waiter's lines (their notes are for the kitchen)."},
                "curso": CURSO,
                "estado": {"type": "string", "enum": ["pendiente", "en_espera", "marchada", "preparada", "servida", "anulada"]},
                "subtotal": MONEY})},
            "total": MONEY, "pendiente": MONEY, "pide_cuenta": {"type": "boolean"}})),
    }, description="A table's check as its guests see it (null while nobody is seated): no ids, no staff, no tokens."),
    "Sala": obj({"generatedAt": TIME, "mesas": {"type": "array", "items": ref("Mesa")}},
                description="The floor: by zone, then by name with numbers compared as numbers."),
    "Cuenta": obj({
        "id": INTEGER_ID, "mesa_id": INTEGER_ID, "mesa": {"type": "string"}, "comensales": {"type": "integer", "minimum": 1},
        "estado": {"type": "string", "enum": ["abierta", "cobrada", "anulada"]}, "abierta": TIME, "cerrada": nullable(TIME),
        "camarero": PERSONA,
        "lineas": {"type": "array", "items": ref("LineaCuenta")}, "total": MONEY, "cobrado": MONEY, "pendiente": MONEY,
        "propinas": MONEY, "pide_cuenta": {"type": "boolean"}, "facturas": {"type": "array", "items": INTEGER_ID},
    }, description="A table's check, opened by seating it, with its lines."),
    "LineaCuenta": obj({
        "id": INTEGER_ID, "plato_id": INTEGER_ID, "nombre": {"type": "string"}, "precio_unitario": MONEY,
        "cantidad": {"type": "integer", "minimum": 1, "maximum": 100},
        "opciones": {"type": "array", "items": obj({"grupo": {"type": "string"}, "valor": {"type": "string"}, "precio": MONEY})},
        "notas": {"type": "string", "maxLength": 200}, "curso": CURSO, "estado": {"type": "string", "enum": LINEA_STATES},
        "origen": {"type": "string", "enum": ["camarero", "cliente"]},
        "comanda_id": {"type": ["integer", "null"], "minimum": 1}, "subtotal": MONEY,
        "iva": {"type": "integer", "enum": [0, 4, 10, 21]},
    }, description="A line of a check: price (dish plus options), name and VAT rate frozen when added."),
    "Comanda": obj({
        "id": INTEGER_ID, "cuenta_id": INTEGER_ID, "mesa": {"type": "string"}, "curso": CURSO,
        "estado": {"type": "string", "enum": COMANDA_STATES}, "enviada": TIME, "marchada": nullable(TIME),
        "preparada": nullable(TIME), "camarero": PERSONA, "lineas": {"type": "array", "items": ref("LineaCuenta")},
    }, description="What the kitchen receives: one course of one send."),
    "Comandas": obj({"comandas": {"type": "array", "items": ref("Comanda")}}),
    "Factura": obj({
        "id": INTEGER_ID, "numero": {"type": "string", "description": "`{serieFacturas}{YYYY}-{NNNNNN}`, no gap and no repeat."},
        "fecha": TIME, "cuenta_id": INTEGER_ID, "mesa": {"type": "string"}, "importe_total": MONEY, "cuota_total": MONEY,
        "desglose": {"type": "array", "items": obj({"iva": {"type": "integer", "enum": [0, 4, 10, 21]}, "base": MONEY, "cuota": MONEY})},
        "lineas": {"type": "array", "items": obj({"nombre": {"type": "string"}, "cantidad": {"type": "integer", "minimum": 1},
                                                  "importe": MONEY})},
        "metodo": {"type": "string", "enum": ["efectivo", "tarjeta", "otro"]},
        "estado": {"type": "string", "enum": ["emitida", "anulada"]},
        "huella": {"type": "string", "pattern": "^[0-9A-F]{64}$", "description": "Its billing record's SHA-256 `Huella`."},
        "qr": {"type": "string", "description": "The AEAT's checking address (`ValidarQR`), the text of its QR code."},
    }, description="A simplified invoice (factura simplificada): one per payment."),
    "Cobro": obj({
        "cobro": obj({"id": INTEGER_ID, "metodo": {"type": "string", "enum": ["efectivo", "tarjeta", "otro"]}, "importe": MONEY,
                      "propina": MONEY, "entregado": nullable(MONEY), "cambio": nullable(MONEY), "fecha": TIME}),
        "factura": ref("Factura"), "cuenta": ref("Cuenta"),
    }, description="A payment taken: its invoice and the check after it."),
    "Registros": obj({"registros": {"type": "array", "items": {"type": "object", "additionalProperties": False, "properties": {
        "posicion": {"type": "integer", "minimum": 1}, "tipo": {"type": "string", "enum": ["alta", "anulacion"]},
        "IDEmisorFactura": {"type": "string"}, "NumSerieFactura": {"type": "string"}, "FechaExpedicionFactura": {"type": "string"},
        "TipoFactura": {"type": "string", "enum": ["F2"]}, "CuotaTotal": {"type": "string"}, "ImporteTotal": {"type": "string"},
        "IDEmisorFacturaAnulada": {"type": "string"}, "NumSerieFacturaAnulada": {"type": "string"},
        "FechaExpedicionFacturaAnulada": {"type": "string"}, "FechaHoraHusoGenRegistro": {"type": "string"},
        "Huella": {"type": "string", "pattern": "^[0-9A-F]{64}$"},
        "anterior": {"type": ["object", "null"], "properties": {
            "IDEmisorFactura": {"type": "string"}, "NumSerieFactura": {"type": "string"}, "FechaExpedicionFactura": {"type": "string"},
            "Huella": {"type": "string"}}},
    }, "required": ["posicion", "tipo", "FechaHoraHusoGenRegistro", "Huella", "anterior"]}}},
        description="VERI*FACTU billing records in chain order."),
    "InformeCaja": obj({
        "desde": {"type": "string"}, "hasta": {"type": "string"}, "facturas": {"type": "integer", "minimum": 0}, "total": MONEY,
        "por_metodo": {"type": "array", "items": obj({"metodo": {"type": "string"}, "importe": MONEY, "propinas": MONEY})},
        "iva": {"type": "array", "items": obj({"iva": {"type": "integer"}, "base": MONEY, "cuota": MONEY})},
        "anuladas": {"type": "integer", "minimum": 0},
        "lineas_anuladas": {"type": "array", "items": obj({"nombre": {"type": "string"}, "cantidad": {"type": "integer"},
                                                          "motivo": {"type": "string"}, "gerente": {"type": ["string", "null"]}})},
        "propinas_por_camarero": {"type": "array", "items": obj({"id": INTEGER_ID, "nombre": {"type": "string"}, "propinas": MONEY})},
    }, description="The cash of those days: invoices not voided by method and VAT rate, voided ones, voided lines, tips per waiter."),
    "InformeMesas": obj({
        "desde": {"type": "string"}, "hasta": {"type": "string"},
        "por_plazas": {"type": "array", "items": obj({
            "plazas": {"type": "integer", "minimum": 1}, "ocupaciones": {"type": "integer", "minimum": 1},
            "minutos_medio": {"type": ["number", "null"], "minimum": 0},
            "comensales_medio": {"type": ["number", "null"], "minimum": 0},
        })},
    }, description="The tables' occupations that ended on those days, per table size."),
    "InformeVentas": obj({
        "desde": {"type": "string"}, "hasta": {"type": "string"},
        "pedidos": {"type": "integer", "minimum": 0}, "total": MONEY, "ticket_medio": MONEY,
        "rechazados": {"type": "integer", "minimum": 0}, "cancelados": {"type": "integer", "minimum": 0},
        "minutos_preparacion_medio": {"type": ["number", "null"], "minimum": 0},
        "por_dia": {"type": "array", "items": obj({"fecha": {"type": "string", "format": "date"},
                                                   "pedidos": {"type": "integer", "minimum": 0}, "total": MONEY})},
        "platos": {"type": "array", "items": obj({"plato_id": INTEGER_ID, "nombre": {"type": "string"},
                                                  "cantidad": {"type": "integer", "minimum": 1}, "total": MONEY})},
    }),
    "Reservation": obj(RESERVATION),
    "HostReservation": obj({**RESERVATION, "guestUrl": {"type": "string", "pattern": "^/espera/([1-9][0-9]{0,17}-)?[A-Za-z0-9_-]{22}$",
                                                         "description": "The guest's own page (their link is the key): "
                                                                        "the party's id, a dash and 128 random bits "
                                                                        "(links made before v11: the random part alone)."}},
                           description="A party as the host sees it: with the guest's link."),
    "EstadoEspera": obj({
        "name": {"type": "string", "minLength": 1}, "size": {"type": "integer", "minimum": 1, "maximum": 50},
        "status": PARTY_STATUS,
        "position": {"type": ["integer", "null"], "minimum": 1, "description": "Among the waiting parties by arrival; null unless waiting."},
        "partiesAhead": {"type": ["integer", "null"], "minimum": 0},
        "quotedMinutes": {"type": "integer", "minimum": 0}, "estimatedReadyTime": TIME,
        "arrivalTime": TIME, "readyTime": nullable(TIME),
    }, description="A guest's place in line."),
    "EstadisticasEspera": obj({
        "dias": {"type": "integer", "minimum": 1, "maximum": 365},
        "grupos": {"type": "array", "minItems": 4, "maxItems": 4, "items": obj({
            "tamano": {"type": "string", "enum": ["1-2", "3-4", "5-6", "7+"]},
            "atendidos": {"type": "integer", "minimum": 0},
            "esperaMediaMinutos": {"type": ["number", "null"], "minimum": 0},
            "esperaCitadaMediaMinutos": {"type": ["number", "null"], "minimum": 0},
            "errorMedioMinutos": {"type": ["number", "null"], "minimum": 0},
        })},
        "abandonos": {"type": "integer", "minimum": 0},
    }),
    "Waitlist": obj({
        "reservations": {"type": "array", "items": ref("Reservation")},
        "averageWaitMinutes": {"type": "integer", "minimum": 0},
        "generatedAt": TIME,
    }),
}

REQUESTS = {
    "NuevoUsuario": obj({"nombre": {"type": "string", "minLength": 1, "maxLength": 100},
                         "login": {"type": "string", "minLength": 1, "maxLength": 100},
                         "password": {"type": "string", "minLength": 8, "maxLength": 1024}}, extra=True),
    "Credenciales": obj({"login": {"type": "string"}, "password": {"type": "string"}}, extra=True),
    "NuevaLinea": obj({"plato_id": INTEGER_ID, "cantidad": {"type": "integer", "minimum": 1, "maximum": 100, "default": 1},
                       "opciones": {"type": "array", "items": INTEGER_ID, "description": "The chosen values' ids."}},
                      required=["plato_id"], extra=True),
    "Cantidad": obj({"cantidad": {"type": "integer", "minimum": 1, "maximum": 100}}, extra=True),
    "Entrega": obj({"direccion": {"type": "string", "minLength": 5, "maxLength": 300},
                    "telefono": {"type": "string", "pattern": "^\\+?[0-9][0-9 .()-]{4,20}[0-9]$"}}, extra=True),
    "Aceptar": obj({"minutos": {"type": "integer", "minimum": 1, "maximum": 240}}, extra=True),
    "NuevaMesa": obj({"nombre": {"type": "string", "minLength": 1, "maxLength": 20}, "zona": {"type": "string", "maxLength": 40},
                      "plazas": {"type": "integer", "minimum": 1, "maximum": 50}}, required=["nombre", "plazas"], extra=True),
    "CambiosMesa": obj({"nombre": {"type": "string", "minLength": 1, "maxLength": 20}, "zona": {"type": "string", "maxLength": 40},
                        "plazas": {"type": "integer", "minimum": 1, "maximum": 50}}, required=[], extra=True),
    "Sentar": obj({"comensales": {"type": "integer", "minimum": 1, "maximum": 50},
                   "reservation_id": {"type": "integer", "minimum": 1, "description": "A waiting or ready party, seated here."},
                   "unir": {"type": "array", "items": INTEGER_ID, "uniqueItems": True,
                            "description": "Other free tables for the same party."}},
                  required=["comensales"], extra=True),
    "Rechazar": obj({"motivo": {"type": "string", "minLength": 1, "maxLength": 300}}, extra=True),
    "LineaMesa": obj({
        "plato_id": INTEGER_ID, "cantidad": {"type": "integer", "minimum": 1, "maximum": 100, "default": 1},
        "notas": {"type": "string", "maxLength": 200, "default": ""},
        "opciones": {"type": "array", "items": INTEGER_ID, "description": "The chosen values' ids."}},
        required=["plato_id"], extra=True),
    "NuevaLineaCuenta": obj({
        "plato_id": INTEGER_ID, "cantidad": {"type": "integer", "minimum": 1, "maximum": 100, "default": 1},
        "curso": {**CURSO, "default": 1}, "notas": {"type": "string", "maxLength": 200, "default": ""},
        "opciones": {"type": "array", "items": INTEGER_ID, "description": "The chosen values' ids."}},
        required=["plato_id"], extra=True),
    "CambiosLineaCuenta": obj({"cantidad": {"type": "integer", "minimum": 1, "maximum": 100}, "curso": CURSO,
                               "notas": {"type": "string", "maxLength": 200}}, required=[], extra=True),
    "Marchar": obj({"curso": CURSO}, extra=True),
    "Mover": obj({"mesa_id": INTEGER_ID}, extra=True),
    "Anular": obj({"motivo": {"type": "string", "minLength": 1, "maxLength": 200}}, extra=True),
    "NuevoCobro": obj({
        "metodo": {"type": "string", "enum": ["efectivo", "tarjeta", "otro"]},
        "importe": {"type": "number", "minimum": 0.01, "multipleOf": 0.01, "description": "An amount up to what is owed."},
        "lineas": {"type": "array", "minItems": 1, "items": INTEGER_ID, "description": "Sent lines not yet paid by lines."},
        "partes": {"type": "integer", "minimum": 2, "maximum": 50, "description": "One of n shares of what is owed."},
        "propina": {"type": "number", "minimum": 0, "maximum": 1000, "multipleOf": 0.01, "default": 0},
        "entregado": {"type": "number", "minimum": 0, "multipleOf": 0.01, "description": "Cash handed over (efectivo only)."},
    }, required=["metodo"], extra=True),
    "NuevoPlato": obj({
        "nombre": {"type": "string", "minLength": 1, "maxLength": 100},
        "descripcion": {"type": "string", "maxLength": 1000},
        "precio": {"type": "number", "exclusiveMinimum": 0, "maximum": 10000, "multipleOf": 0.01},
        "tipo": {"type": "string", "minLength": 1, "maxLength": 50},
        "alergenos": ALERGENOS, "trazas": ALERGENOS,
        "ingredientes": {"type": "array", "maxItems": 50, "items": {
            "type": "object", "required": ["nombre"], "properties": {
                "nombre": {"type": "string", "minLength": 1, "maxLength": 100}, "cantidad": {"type": "string", "maxLength": 50}}}},
        "disponible": {"type": "boolean"},
        "iva": {"type": "integer", "enum": [0, 4, 10, 21], "default": 10},
    }, required=["nombre", "descripcion", "precio", "tipo"], extra=True),
    "Opciones": obj({"opciones": {"type": "array", "maxItems": 20, "items": obj({
        "nombre": {"type": "string", "minLength": 1, "maxLength": 60},
        "min": {"type": "integer", "minimum": 0, "maximum": 20}, "max": {"type": "integer", "minimum": 0, "maximum": 20},
        "valores": {"type": "array", "minItems": 1, "maxItems": 20, "items": obj({
            "nombre": {"type": "string", "minLength": 1, "maxLength": 60},
            "precio": {"type": "number", "minimum": 0, "maximum": 1000, "multipleOf": 0.01}}, extra=True)},
    }, extra=True)}}, extra=True),
    "Disponible": obj({"disponible": {"type": "boolean"}}, extra=True),
    "NuevaReserva": obj({"name": {"type": "string", "minLength": 1, "maxLength": 100},
                         "size": {"type": "integer", "minimum": 1, "maximum": 50}}, extra=True),
}

IDEMPOTENCY = {"name": "Idempotency-Key", "in": "header", "required": False, "schema": {"type": "string", "maxLength": 200},
               "description": "A repeat with the same key by the same user returns the first answer and changes nothing "
                              "(409 `idempotency_key_in_use` while the first is still being written)."}

ORDER_ID = path_param("id", "The order's id.")
PARTY_ID = path_param("id", "The party's id.")
PLATO_ID = path_param("plato_id", "The dish's id.")
HOST_KEY = path_param("key", "The legacy host app's secret key.", {"type": "string", "minLength": 1})
FEED_HEADERS = None


def feed(description, status="200"):
    return {status: {"description": description, "content": TEXT}}


def feed_answers(success):
    """Every legacy write answers the whole feed as text (a wrong key: empty), with the true status."""
    r = {success: {"description": "The whole feed.", "content": TEXT}}
    for code, why in [("400", "Malformed path."), ("404", "Wrong key (empty body), or no such party (the feed)."),
                      ("422", "A bad name or size (the feed).")]:
        r[code] = {"description": why, "content": TEXT}
    return r


def legacy(summary, params, success, operation_id):
    return {"summary": summary, "operationId": operation_id, "tags": ["RestaurantQueue feed"], "security": [],
            "x-roles": [], "parameters": params, "responses": dict(sorted(feed_answers(success).items()))}


MOVE_CONFLICT = error("`transicion_no_valida`: the move does not start from the order's state (`estado` says which).")

PLATO_PATH = path_param("id", "The dish's id.")
MENU_FILTERS = [
    query("q", "A literal substring of `nombre` or `descripcion`, ignoring case and accents.", {"type": "string"}),
    query("tipo", "Only this category.", {"type": "string"}),
    query("sin", "Leave out dishes containing any of these allergen codes (comma-separated).", {"type": "string"}),
    query("trazas", "`excluir`: with `sin`, leave out dishes that may hold them as traces too.",
          {"type": "string", "enum": ["excluir", "incluir"]}),
    query("disponible", "`true`: only dishes that can be ordered now.", {"type": "string", "enum": ["true", "false"]}),
]
PATCH_PLATO = {**REQUESTS["NuevoPlato"], "required": []}

PEDIDO_LINKS = {
    "GetPedido": {"operationId": "getPedido", "parameters": {"id": "$response.body#/id"}},
    "AddLinea": {"operationId": "addLinea", "parameters": {"id": "$response.body#/id"}},
    "Checkout": {"operationId": "checkout", "parameters": {"id": "$response.body#/id"}},
}
LINEA_LINKS = {
    "SetCantidad": {"operationId": "setCantidad",
                    "parameters": {"id": "$request.path.id", "linea_id": "$response.body#/id"}},
    "DeleteLinea": {"operationId": "deleteLinea",
                    "parameters": {"id": "$request.path.id", "linea_id": "$response.body#/id"}},
}
PARTY_LINKS = {
    "Ready": {"operationId": "readyReservation", "parameters": {"id": "$response.body#/id"}},
    "Remove": {"operationId": "removeReservation", "parameters": {"id": "$response.body#/id"}},
    "Show": {"operationId": "reservation", "parameters": {"id": "$response.body#/id"}},
}

# Logins and registrations wait for a password hash on their own bounded queue.
BUSY = {"description": "Too many logins waiting for their password to be checked; try again after `Retry-After`.",
        "headers": {"Retry-After": {"required": True, "schema": {"type": "string"}}},
        "content": json_content(ref("Error"))}
READS_BUSY = {"description": "Too many long reads (boards, reports) waiting for a thread; try again after `Retry-After`.",
              "headers": {"Retry-After": {"required": True, "schema": {"type": "string"}}},
              "content": json_content(ref("Error"))}

PATHS = {
    "/health": {"get": {"summary": "Liveness: `ok`, no database work.", "operationId": "health", "tags": ["Operations"],
                        "security": [], "x-roles": [], "responses": feed("`ok`")}},
    "/ajustes": {"get": op("The restaurant's name and time zone, for every page (times are shown in the restaurant's zone).",
                           ANYONE, {"200": ok(obj({"nombreRestaurante": {"type": "string", "minLength": 1, "maxLength": 60},
                                                   "zonaHoraria": {"type": "string", "description": "An IANA time zone name."}}))},
                           tags=["Operations"], operation_id="ajustes")},
    "/metrics": {"get": {"summary": "Prometheus text format.", "operationId": "metrics", "tags": ["Operations"],
                         "security": [], "x-roles": [],
                         "responses": {"200": {"description": "The metrics.",
                                               "content": {"text/plain; version=0.0.4; charset=utf-8": {"schema": {"type": "string"}}}}}}},
    "/openapi.json": {"get": op("This document.", ANYONE, {"200": ok({"type": "object"}, headers=ETAG), "304": NOT_MODIFIED},
                                tags=["Operations"], operation_id="openapi")},
    "/platos": {
        "get": op("The menu, by category (menu order) then name.", ANYONE,
                  {"200": ok({"type": "array", "items": ref("Plato")}, headers=ETAG), "304": NOT_MODIFIED},
                  params=MENU_FILTERS, tags=["Menu"], operation_id="listPlatos"),
        "post": op("A new dish (a new category joins the menu order last).", staff("gerente"),
                   {"201": ok(ref("Plato"), "Created.", headers={"Location": {"required": True, "schema": {"type": "string"}}}),
                    "409": error("`nombre_en_uso`: another dish on the menu has this name (ignoring case and accents).")},
                   request=body(REQUESTS["NuevoPlato"]), tags=["Managing the menu"], operation_id="createPlato"),
    },
    "/platos/{id}": {
        "get": op("One dish.", ANYONE, {"200": ok(ref("Plato"), headers=ETAG), "304": NOT_MODIFIED},
                  params=[PLATO_PATH], tags=["Menu"], operation_id="getPlato"),
        "patch": op("Change the fields sent (an empty object changes nothing).", staff("gerente"),
                    {"200": ok(ref("Plato")), "409": error("`nombre_en_uso`: another dish on the menu has this name.")},
                    params=[PLATO_PATH], request=body(PATCH_PLATO), tags=["Managing the menu"], operation_id="patchPlato"),
        "delete": op("Retire a dish: off the menu, search and favourites; kept in placed orders.", staff("gerente"),
                     {"204": NO_CONTENT}, params=[PLATO_PATH], tags=["Managing the menu"], operation_id="retirePlato"),
    },
    "/platos/{id}/disponible": {"put": op("Sold out for now (false), or back (true).", staff("cocina"), {"200": ok(ref("Plato"))},
                                          params=[PLATO_PATH], request=body(REQUESTS["Disponible"]), tags=["Managing the menu"],
                                          operation_id="setDisponible")},
    "/platos/{id}/opciones": {"put": op(
        "Replace the dish's whole list of options (`min` ≤ `max` ≤ the number of values; new ids from the server).",
        staff("gerente"), {"200": ok(ref("Plato"))}, params=[PLATO_PATH], request=body(REQUESTS["Opciones"]),
        tags=["Managing the menu"], operation_id="setOpciones")},
    "/platos/{id}/foto": {
        "get": {**op("The dish's photo (strong ETag; `immutable` with the current `v`).", ANYONE,
                     {"200": {"description": "The image.", "headers": ETAG,
                              "content": {t: {"schema": {"type": "string", "format": "binary"}} for t in ["image/jpeg", "image/png", "image/webp"]}},
                      "304": NOT_MODIFIED},
                     params=[PLATO_PATH, query("v", "The photo's version tag.", {"type": "string"})], tags=["Managing the menu"],
                     operation_id="getFoto")},
        "put": op("Upload the photo: JPEG, PNG or WebP up to 5 MiB, 1…10000 px each way.", staff("gerente"),
                  {"200": ok(ref("Plato")), "413": rref("TooLarge"), "415": error("Not image/jpeg, image/png or image/webp."),
                   "422": error("`imagen_no_valida`: the bytes are not that format, or the size is out of range.")},
                  params=[PLATO_PATH],
                  request={"required": True, "content": {t: {"schema": {"type": "string", "format": "binary"}}
                                                         for t in ["image/jpeg", "image/png", "image/webp"]}},
                  tags=["Managing the menu"], operation_id="putFoto"),
        "delete": op("Remove the photo.", staff("gerente"), {"204": NO_CONTENT}, params=[PLATO_PATH],
                     tags=["Managing the menu"], operation_id="deleteFoto"),
    },
    "/alergenos": {"get": op("The 14 allergens of Regulation (EU) 1169/2011, Annex II, in its order.", ANYONE,
                             {"200": ok({"type": "array", "items": ref("Alergeno"), "minItems": 14, "maxItems": 14})},
                             tags=["Menu"], operation_id="alergenos")},
    "/carta": {"get": op("The menu in sections, as the app's table shows it.", ANYONE,
                         {"200": ok({"type": "array", "items": ref("Seccion")}, headers=ETAG), "304": NOT_MODIFIED},
                         params=MENU_FILTERS,
                         tags=["Menu"], operation_id="carta")},
    "/categorias": {"get": op("The categories in menu order.", ANYONE,
                              {"200": ok({"type": "array", "items": ref("Categoria")}, headers=ETAG), "304": NOT_MODIFIED},
                              tags=["Menu"], operation_id="categorias")},
    "/usuarios": {"post": op("Register a customer.", ANYONE,
                             {"201": ok(ref("Usuario"), "Created."), "409": error("The login is taken (ignoring case)."),
                              "503": BUSY},
                             request=body(REQUESTS["NuevoUsuario"]), tags=["Users"], operation_id="register")},
    "/sesiones": {"post": op("Log in: a new token.", ANYONE,
                             {"201": ok(ref("Sesion"), "Logged in."),
                              "401": {"description": "Wrong login or password (the same answer for both).",
                                      "headers": {"WWW-Authenticate": {"required": True, "schema": {"type": "string"}}},
                                      "content": json_content(ref("Error"))},
                              "429": {"description": "Too many failed logins for this login from this client address, "
                                                     "or from this address for any login.",
                                      "headers": {"Retry-After": {"required": True, "schema": {"type": "string"}}},
                                      "content": json_content(ref("Error"))},
                              "503": BUSY},
                             request=body(REQUESTS["Credenciales"]), tags=["Users"], operation_id="login")},
    "/sesiones/actual": {"delete": op("Log out: the token stops working.", USER, {"204": NO_CONTENT},
                                      tags=["Users"], operation_id="logout")},
    "/sesiones/actual/tickets": {"post": op(
        "A one-use ticket (60 s) for a stream's `?ticket=`: EventSource cannot send a token.", USER,
        {"201": ok(ref("Ticket"), "Issued.")}, tags=["Users", "Live"], operation_id="streamTicket")},
    "/usuarios/yo": {"get": op("The current user.", USER, {"200": ok(ref("UsuarioYo"))}, tags=["Users"], operation_id="me")},
    "/usuarios/yo/favoritos": {"get": op("The user's favourite dishes.", USER, {"200": ok({"type": "array", "items": ref("Plato")})},
                                         tags=["Users"], operation_id="favoritos")},
    "/usuarios/yo/favoritos/{plato_id}": {
        "put": op("Add a favourite (idempotent).", USER, {"204": NO_CONTENT}, params=[PLATO_ID], tags=["Users"],
                  operation_id="addFavorito"),
        "delete": op("Remove a favourite (idempotent).", USER, {"204": NO_CONTENT}, params=[PLATO_ID], tags=["Users"],
                     operation_id="removeFavorito"),
    },
    "/pedidos": {
        "post": op("Open an order (or get the open one: 200).", USER,
                   {"201": ok(ref("Pedido"), "Created."), "200": ok(ref("Pedido"), "The open order."),
                    "422": error("`idempotency_key_reused`: the key was used with another request.")},
                   params=[IDEMPOTENCY], tags=["Orders"], operation_id="openPedido",
                   links={"201": PEDIDO_LINKS, "200": PEDIDO_LINKS}),
        "get": op("The user's placed orders, newest first.", USER,
                  {"200": ok({"type": "array", "items": ref("ResumenPedido")})},
                  params=[query("limit", "1…200, default 50.", {"type": "integer", "minimum": 1, "maximum": 200}),
                          query("antes", "Orders older than this one.", INTEGER_ID)],
                  tags=["Orders"], operation_id="historial"),
    },
    "/pedidos/actual": {"get": op("The user's open order.", USER, {"200": ok(ref("Pedido")),
                                                                   "404": error("No open order.")},
                                  tags=["Orders"], operation_id="pedidoActual")},
    "/pedidos/{id}": {
        "get": op("One of the user's orders.", USER, {"200": ok(ref("Pedido"))}, params=[ORDER_ID], tags=["Orders"],
                  operation_id="getPedido"),
        "delete": op("Cancel an open order (deleted).", USER, {"204": NO_CONTENT, "409": error("`pedido_realizado`.")},
                     params=[ORDER_ID], tags=["Orders"], operation_id="deletePedido"),
    },
    "/pedidos/{id}/lineas": {"post": op(
        "Add a dish (or add to its line: 200).", USER,
        {"201": ok(ref("Linea"), "Created."), "200": ok(ref("Linea"), "Added to the dish's line."),
         "409": error("`pedido_realizado`.")},
        params=[ORDER_ID], request=body(REQUESTS["NuevaLinea"]), tags=["Orders"], operation_id="addLinea",
        links={"201": LINEA_LINKS, "200": LINEA_LINKS})},
    "/pedidos/{id}/lineas/{linea_id}": {
        "put": op("Set a line's quantity.", USER, {"200": ok(ref("Linea")), "409": error("`pedido_realizado`.")},
                  params=[ORDER_ID, path_param("linea_id", "The line's id.")], request=body(REQUESTS["Cantidad"]),
                  tags=["Orders"], operation_id="setCantidad"),
        "delete": op("Remove a line.", USER, {"204": NO_CONTENT, "409": error("`pedido_realizado`.")},
                     params=[ORDER_ID, path_param("linea_id", "The line's id.")], tags=["Orders"], operation_id="deleteLinea"),
    },
    "/pedidos/{id}/checkout": {"post": op(
        "Place the order: prices frozen, `fecha` now.", USER,
        {"200": ok(ref("Pedido")), "409": error("`pedido_realizado`."),
         "422": error("`pedido_vacio`, `idempotency_key_reused`, or a bad address or phone (`field`).")},
        params=[ORDER_ID, IDEMPOTENCY], request=body(REQUESTS["Entrega"]), tags=["Orders"], operation_id="checkout")},
    "/pedidos/{id}/eventos": {"get": stream_op(
        "One order as Server-Sent Events: `event: pedido` with the `Pedido` on connect and after each change of state.",
        USER, [ORDER_ID], ["pedido"], "pedidoEvents")},
    "/pedidos/{id}/cancelar": {"post": op(
        "The owner cancels a placed order before the kitchen accepts it.", USER,
        {"200": ok(ref("Pedido")), "409": error("`transicion_no_valida` (with `estado`): only a `realizado` order can be cancelled.")},
        params=[ORDER_ID], tags=["Orders"], operation_id="cancelarPedido")},
    "/cocina/pedidos": {"get": op(
        "The kitchen's orders, oldest `fecha` first, ties by id.", staff("cocina"),
        {"200": ok({"type": "array", "items": ref("PedidoCocina")}, headers=ETAG), "304": NOT_MODIFIED},
        params=[query("estado", "Comma-separated states (any but `abierto`); default `realizado,aceptado,preparado`.",
                      {"type": "string"})],
        tags=["Kitchen"], operation_id="cocinaPedidos")},
    "/cocina/eventos": {"get": stream_op(
        "The kitchen as Server-Sent Events: `event: snapshot` with the body of `GET /cocina/pedidos` on connect and right "
        "after it `event: comandas` with the body of `GET /cocina/comandas`; then `event: pedido` with the `PedidoCocina` "
        "each time an order is placed or changes state, and `event: comanda` with the `Comanda` each time one is fired, "
        "ready, served or has a line voided.",
        staff("cocina"), [], ["snapshot", "comandas", "pedido", "comanda"], "cocinaEvents")},
    "/cuentas/eventos": {"get": stream_op(
        "The checks as Server-Sent Events: `event: cuentas` with the body of `GET /cuentas` on connect, then `event: cuenta` "
        "with the `Cuenta` after each change of one.", WAITERS, [], ["cuentas", "cuenta"], "cuentasEvents")},
    "/cocina/pedidos/{id}": {"get": op("Any placed order.", staff("cocina"), {"200": ok(ref("PedidoCocina"))},
                                       params=[ORDER_ID], tags=["Kitchen"], operation_id="cocinaPedido")},
    "/cocina/pedidos/{id}/aceptar": {"post": op(
        "Accept: `listo_estimado` = now + minutos.", staff("cocina"), {"200": ok(ref("PedidoCocina")), "409": MOVE_CONFLICT},
        params=[ORDER_ID], request=body(REQUESTS["Aceptar"]), tags=["Kitchen"], operation_id="aceptar")},
    "/cocina/pedidos/{id}/rechazar": {"post": op(
        "Reject, with a reason.", staff("cocina"), {"200": ok(ref("PedidoCocina")), "409": MOVE_CONFLICT},
        params=[ORDER_ID], request=body(REQUESTS["Rechazar"]), tags=["Kitchen"], operation_id="rechazar")},
    "/cocina/pedidos/{id}/preparado": {"post": op(
        "Prepared.", staff("cocina"), {"200": ok(ref("PedidoCocina")), "409": MOVE_CONFLICT},
        params=[ORDER_ID], tags=["Kitchen"], operation_id="preparado")},
    "/cocina/pedidos/{id}/entregado": {"post": op(
        "Handed over.", staff("cocina"), {"200": ok(ref("PedidoCocina")), "409": MOVE_CONFLICT},
        params=[ORDER_ID], tags=["Kitchen"], operation_id="entregado")},
    "/cocina/pedidos/{id}/ticket": {"get": op(
        "The kitchen ticket: plain text, 42 columns, times in the restaurant's zone.", staff("cocina"),
        {"200": {"description": "The ticket.", "content": TEXT}}, params=[ORDER_ID], tags=["Kitchen"], operation_id="ticket")},
    "/mesas": {
        "get": op("The floor: every table in service.", FLOOR, {"200": ok(ref("Sala"), headers=ETAG), "304": NOT_MODIFIED},
                  tags=["Dining room"], operation_id="mesas"),
        "post": op("A new table (`libre`).", staff("gerente"),
                   {"201": ok(ref("Mesa"), "Created."), "409": error("`mesa_duplicada`: another table has this name.")},
                   request=body(REQUESTS["NuevaMesa"]), tags=["Dining room"], operation_id="createMesa")},
    "/mesas/eventos": {"get": stream_op(
        "The floor as Server-Sent Events: `event: mesas` with the body of `GET /mesas` on connect and after every change.",
        FLOOR, [], ["mesas"], "mesasEvents")},
    "/mesas/{id}": {
        "get": op("One table.", FLOOR, {"200": ok(ref("Mesa"))}, params=[MESA_ID], tags=["Dining room"], operation_id="mesa"),
        "patch": op("Change a table's name, zone or seats.", staff("gerente"),
                    {"200": ok(ref("Mesa")), "409": error("`mesa_duplicada`: another table has this name.")},
                    params=[MESA_ID], request=body(REQUESTS["CambiosMesa"]), tags=["Dining room"], operation_id="updateMesa"),
        "delete": op("Retire a free table (kept in history).", staff("gerente"),
                     {"204": NO_CONTENT, "409": error("`mesa_ocupada`: only a free table can be retired.")},
                     params=[MESA_ID], tags=["Dining room"], operation_id="retireMesa")},
    "/mesas/{id}/enlace": {"post": op(
        "A new link for the table: the old one is 404 from now on (and its streams end).", staff("gerente"),
        {"200": ok(ref("Mesa"))}, params=[MESA_ID], tags=["The table's link"], operation_id="regenerateEnlace")},
    "/mesas/{id}/qr.png": {"get": op(
        "The QR code (PNG) of the table's absolute link: the setting `urlPublica` (else `http://` and the request's Host) "
        "followed by its `enlace`.", staff("gerente"),
        {"200": {"description": "The QR code.", "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}},
                 "headers": ETAG}, "304": NOT_MODIFIED},
        params=[MESA_ID], tags=["The table's link"], operation_id="mesaQR")},
    "/mesas/{id}/sentar": {"post": op(
        "Seat a party: the table (and those of `unir`) `ocupada` with a new open check; with `reservation_id` that "
        "waitlist party is seated in the same transaction.", FLOOR,
        {"201": ok(ref("Cuenta"), "Seated."), "409": error("`transicion_no_valida`: the table (or one of `unir`) is not free "
                                                            "(`estado` says its state).")},
        params=[MESA_ID], request=body(REQUESTS["Sentar"]), tags=["Dining room"], operation_id="sentar")},
    "/mesas/{id}/liberar": {"post": op(
        "The party has gone: `por_limpiar` (its joined tables too); an empty open check becomes `anulada`.", FLOOR,
        {"200": ok(ref("Mesa")), "409": error("`transicion_no_valida` (not `ocupada`, or joined to another table) or "
                                              "`cuenta_pendiente` (the check has something to pay).")},
        params=[MESA_ID], tags=["Dining room"], operation_id="liberar")},
    "/mesas/{id}/limpia": {"post": op(
        "Cleaned: `libre` again.", FLOOR, {"200": ok(ref("Mesa")), "409": error("`transicion_no_valida`: not `por_limpiar`.")},
        params=[MESA_ID], tags=["Dining room"], operation_id="limpia")},
    "/cuentas": {"get": op(
        "The open checks, oldest first; `?estado=cobrada|anulada` with `desde`/`hasta` (the restaurant's days) for closed ones.",
        WAITERS, {"200": ok({"type": "array", "items": ref("Cuenta")}), "503": READS_BUSY},
        params=[query("estado", "abierta (default), cobrada or anulada.", {"type": "string", "enum": ["abierta", "cobrada", "anulada"]}),
                query("desde", "YYYY-MM-DD.", {"type": "string"}), query("hasta", "YYYY-MM-DD.", {"type": "string"})],
        tags=["Table service"], operation_id="cuentas")},
    "/cuentas/{id}": {"get": op("One check with its lines.", WAITERS, {"200": ok(ref("Cuenta"))}, params=[CUENTA_ID],
                                tags=["Table service"], operation_id="cuenta")},
    "/cuentas/{id}/lineas": {"post": op(
        "Add a line (`pendiente`): always a new line, its price, name and VAT rate frozen now.", WAITERS,
        {"201": ok(ref("LineaCuenta"), "Added."), "409": error("`plato_agotado` (sold out) or `cuenta_cerrada`.")},
        params=[CUENTA_ID], request=body(REQUESTS["NuevaLineaCuenta"]), tags=["Table service"], operation_id="addLineaCuenta")},
    "/cuentas/{id}/lineas/{linea}": {
        "patch": op("Change a `pendiente` line.", WAITERS,
                    {"200": ok(ref("LineaCuenta")), "409": error("`linea_enviada` or `cuenta_cerrada`.")},
                    params=[CUENTA_ID, LINEA_ID], request=body(REQUESTS["CambiosLineaCuenta"]), tags=["Table service"],
                    operation_id="updateLineaCuenta"),
        "delete": op("Delete a `pendiente` line.", WAITERS,
                     {"204": NO_CONTENT, "409": error("`linea_enviada` or `cuenta_cerrada`.")},
                     params=[CUENTA_ID, LINEA_ID], tags=["Table service"], operation_id="deleteLineaCuenta")},
    "/cuentas/{id}/lineas/{linea}/anular": {"post": op(
        "Void a sent line, with a reason.", staff("gerente"),
        {"200": ok(ref("LineaCuenta")), "409": error("`linea_no_enviada` (delete it instead), `transicion_no_valida` "
                                                     "(already voided) or `cuenta_cerrada`.")},
        params=[CUENTA_ID, LINEA_ID], request=body(REQUESTS["Anular"]), tags=["Table service"], operation_id="anularLinea")},
    "/cuentas/{id}/enviar": {"post": op(
        "Send every `pendiente` line: one comanda per course, course 1 `marchada` at once, later courses `en_espera`.", WAITERS,
        {"200": ok(ref("Comandas")), "409": error("`cuenta_cerrada`."),
         "422": error("`nada_que_enviar`: no line is `pendiente`.")},
        params=[CUENTA_ID], tags=["Table service"], operation_id="enviar")},
    "/cuentas/{id}/marchar": {"post": op(
        "Fire the held comandas of a course.", WAITERS,
        {"200": ok(ref("Comandas")), "409": error("`nada_que_marchar` or `cuenta_cerrada`.")},
        params=[CUENTA_ID], request=body(REQUESTS["Marchar"]), tags=["Table service"], operation_id="marchar")},
    "/cuentas/{id}/comandas/{comanda}/servida": {"post": op(
        "A ready comanda taken to the table: `preparada` → `servida`.", WAITERS,
        {"200": ok(ref("Comanda")), "409": error("`transicion_no_valida` or `cuenta_cerrada`.")},
        params=[CUENTA_ID, COMANDA_ID], tags=["Table service"], operation_id="servida")},
    "/cocina/comandas": {"get": op(
        "The kitchen's comandas: `marchada` and `preparada` by default, oldest fired first.", staff("cocina"),
        {"200": ok({"type": "array", "items": ref("Comanda")}, headers=ETAG), "304": NOT_MODIFIED, "503": READS_BUSY},
        params=[query("estado", "States separated by commas.", {"type": "string", "pattern": "^(en_espera|marchada|preparada|servida)(,(en_espera|marchada|preparada|servida))*$"})],
        tags=["Kitchen"], operation_id="comandasCocina")},
    "/cuentas/{id}/mover": {"post": op(
        "Move an open check to a free table: the new one `ocupada`, the old one (and its joined tables) `por_limpiar` if it still holds this check (a check reopened by voiding an invoice after its table was freed leaves that table as it is).",
        WAITERS, {"200": ok(ref("Cuenta")), "409": error("`mesa_no_libre` (with `estado`) or `cuenta_cerrada`.")},
        params=[CUENTA_ID], request=body(REQUESTS["Mover"]), tags=["Table service"], operation_id="mover")},
    "/cuentas/{id}/ticket": {"get": op(
        "The pre-bill: plain text, 42 columns: the lines, `TOTAL`, the VAT included per rate, "
        "*Documento no válido como factura*.", WAITERS,
        {"200": {"description": "The pre-bill.", "content": TEXT}}, params=[CUENTA_ID], tags=["Table service"],
        operation_id="preCuenta")},
    "/cocina/comandas/{id}/ticket": {"get": op(
        "The kitchen ticket of a comanda: plain text, 42 columns: table, comanda, course, lines with options and notes.",
        staff("cocina"), {"200": {"description": "The ticket.", "content": TEXT}},
        params=[path_param("id", "The comanda's id.")], tags=["Kitchen"], operation_id="comandaTicket")},
    "/cocina/comandas/{id}/preparada": {"post": op(
        "Ready: `marchada` → `preparada`.", staff("cocina"),
        {"200": ok(ref("Comanda")), "409": error("`transicion_no_valida`.")},
        params=[path_param("id", "The comanda's id.")], tags=["Kitchen"], operation_id="preparada")},
    "/cuentas/{id}/cobros": {"post": op(
        "Take a payment: everything owed, an `importe`, some `lineas` or one of `partes` shares (at most one of them); "
        "a tip apart; cash with `entregado` and its change. Issues one simplified invoice and its chained billing record; "
        "the check `cobrada` when nothing is owed.", WAITERS,
        {"201": ok(ref("Cobro"), "Paid."),
         "409": error("`empresa_sin_configurar`, `lineas_sin_enviar`, `nada_que_cobrar`, `cuenta_cerrada`, or "
                      "`idempotency_key_in_use` (a repeat of a payment still being written: nothing issued).")},
        params=[CUENTA_ID, IDEMPOTENCY], request=body(REQUESTS["NuevoCobro"]), tags=["The bill"], operation_id="cobrar")},
    "/facturas": {"get": op(
        "The invoices issued on the restaurant's days `desde`…`hasta` (both default to today), by number, voided ones included.",
        staff("gerente"), {"200": ok({"type": "array", "items": ref("Factura")}), "503": READS_BUSY},
        params=[query("desde", "YYYY-MM-DD.", {"type": "string"}), query("hasta", "YYYY-MM-DD.", {"type": "string"})],
        tags=["The bill"], operation_id="facturas")},
    "/facturas/{id}": {"get": op("One invoice.", WAITERS, {"200": ok(ref("Factura"))}, params=[FACTURA_ID], tags=["The bill"],
                                 operation_id="factura")},
    "/facturas/{id}/ticket": {"get": op(
        "The invoice for the printer: plain text, 42 columns: the company, FACTURA SIMPLIFICADA, number, lines, TOTAL, "
        "VAT per rate, the payment, the QR's text.", WAITERS, {"200": {"description": "The ticket.", "content": TEXT}},
        params=[FACTURA_ID], tags=["The bill"], operation_id="facturaTicket")},
    "/facturas/{id}/qr.png": {"get": op(
        "The invoice's QR code (ISO/IEC 18004, error correction M) encoding exactly its `qr`, as PNG; a strong ETag.", WAITERS,
        {"200": {"description": "The QR code.", "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}},
                 "headers": ETAG}, "304": NOT_MODIFIED},
        params=[FACTURA_ID], tags=["The bill"], operation_id="facturaQR")},
    "/facturas/{id}/anular": {"post": op(
        "Void an invoice, with a reason: a cancellation record is chained and its amount is owed again on its check.",
        staff("gerente"), {"200": ok(ref("Factura")), "409": error("`transicion_no_valida`: already voided.")},
        params=[FACTURA_ID], request=body(REQUESTS["Anular"]), tags=["The bill"], operation_id="anularFactura")},
    "/verifactu/registros": {"get": op(
        "The billing records in chain order after position `despues`, at most `limite`.", staff("gerente"),
        {"200": ok(ref("Registros")), "503": READS_BUSY},
        params=[query("despues", "A position (default 0).", {"type": "integer", "minimum": 0}),
                query("limite", "1…5000 (default 500).", {"type": "integer", "minimum": 1, "maximum": 5000})],
        tags=["The bill"], operation_id="registros")},
    "/informes/caja": {"get": op(
        "The cash report over the restaurant's days `desde`…`hasta`: by method, VAT per rate, tips per waiter, voided lines and invoices.",
        staff("gerente"), {"200": ok(ref("InformeCaja")), "503": READS_BUSY},
        params=[query("desde", "YYYY-MM-DD.", {"type": "string"}), query("hasta", "YYYY-MM-DD.", {"type": "string"})],
        tags=["Reports"], operation_id="informeCaja")},
    "/informes/mesas": {"get": op(
        "The tables' turn times: occupations that ended (`liberar`) on the restaurant's days `desde`…`hasta`, per table size.",
        staff("gerente"), {"200": ok(ref("InformeMesas")), "503": READS_BUSY},
        params=[query("desde", "YYYY-MM-DD.", {"type": "string"}), query("hasta", "YYYY-MM-DD.", {"type": "string"})],
        tags=["Reports"], operation_id="informeMesas")},
    "/informes/ventas": {"get": op(
        "The sales report over the restaurant's days `desde`…`hasta` (both default to today, at most 366 days).",
        staff("gerente"), {"200": ok(ref("InformeVentas")), "503": READS_BUSY},
        params=[query("desde", "YYYY-MM-DD.", {"type": "string"}), query("hasta", "YYYY-MM-DD.", {"type": "string"})],
        tags=["Reports"], operation_id="informeVentas")},
    "/reservations": {
        "get": op("The waitlist: ready parties first, then waiting ones by arrival.", ANYONE,
                  {"200": ok(ref("Waitlist"), headers=ETAG), "304": NOT_MODIFIED}, tags=["Waitlist"],
                  operation_id="waitlist"),
        "post": op("Add a party: it is quoted a wait and given its guest's link.", staff("anfitrion"),
                   {"201": ok(ref("HostReservation"), "Created.")},
                   request=body(REQUESTS["NuevaReserva"]), tags=["Waitlist"], operation_id="addReservation",
                   links={"201": PARTY_LINKS}),
    },
    "/reservations/eventos": {"get": stream_op(
        "The waitlist as Server-Sent Events: `event: reservations` with the body of `GET /reservations` on connect "
        "and after every change.", ANYONE, [], ["reservations"], "reservationsEvents")},
    "/reservations/{id}/ready": {"post": op("The party's table is ready.", staff("anfitrion"), {"200": ok(ref("Reservation"))},
                                            params=[PARTY_ID], tags=["Waitlist"], operation_id="readyReservation")},
    "/reservations/{id}": {
        "get": op("One party, on the list or not, with its guest's link (to show it again).", staff("anfitrion"),
                  {"200": ok(ref("HostReservation"))}, params=[PARTY_ID], tags=["Waitlist"], operation_id="reservation"),
        "delete": op("The party is seated (`status: seated`): it leaves the list, kept as history.", staff("anfitrion"),
                     {"204": NO_CONTENT}, params=[PARTY_ID], tags=["Waitlist"], operation_id="removeReservation")},
    "/reservations/estadisticas": {"get": op(
        "Per size band, the parties that became ready in the last `dias` days: how many, their mean wait, mean quote "
        "and mean absolute error (minutes, one decimal, null when none); `abandonos`: parties that left.",
        staff("anfitrion"), {"200": ok(ref("EstadisticasEspera"))},
        params=[query("dias", "Days back, 1…365 (default 28).", {"type": "integer", "minimum": 1, "maximum": 365})],
        tags=["Waitlist"], operation_id="waitStatistics")},
    "/espera": {"get": {"summary": "No page without a guest's link: the short HTML page saying the link is not valid.",
                        "operationId": "guestPageWithoutLink", "tags": ["Guest"], "security": [], "x-roles": [],
                        "responses": {"404": {"description": "A short page saying the link is not valid.", "content": HTML}}}},
    "/espera/{token}": {
        "get": {"summary": "The guest's page (HTML): their place in line, the quote, and a button to leave.",
                "operationId": "guestPage", "tags": ["Guest"], "security": [], "x-roles": [],
                "parameters": [GUEST_TOKEN],
                "responses": {"200": {"description": "The page.", "content": HTML},
                              "400": rref("BadRequest"),
                              "404": {"description": "No party has this link: a short page saying so.", "content": HTML}}},
        "delete": op("The guest leaves the list (`status: left`, kept as history).", ANYONE, {"204": NO_CONTENT},
                     params=[GUEST_TOKEN], tags=["Guest"], operation_id="guestLeaves")},
    "/espera/{token}/estado": {"get": op(
        "The guest's place: position among the waiting parties by arrival (null off the waiting list), the quote, "
        "the expected time.", ANYONE, {"200": ok(ref("EstadoEspera"), headers=ETAG), "304": NOT_MODIFIED},
        params=[GUEST_TOKEN], tags=["Guest"], operation_id="guestState")},
    "/espera/{token}/eventos": {"get": stream_op(
        "The guest's place as Server-Sent Events: `event: estado` with the body of `GET /espera/{token}/estado` on "
        "connect and after every change of the list (the stream stays open after the party leaves it).",
        ANYONE, [GUEST_TOKEN], ["estado"], "guestEvents")},
    "/m/{token}": {"get": {
        "summary": "The table's page (HTML): the menu, and while seated its check with each line's state, adding dishes, asking for the bill.",
        "operationId": "tablePage", "tags": ["The table's link"], "security": [], "x-roles": [], "parameters": [TABLE_TOKEN],
        "responses": {"200": {"description": "The page.", "content": HTML}, "400": rref("BadRequest"),
                      "404": {"description": "No table has this link: a short page saying so.", "content": HTML}}}},
    "/m/{token}/cuenta": {"get": op(
        "The table's name and, while seated, its check as the guests may see it.", ANYONE,
        {"200": ok(ref("VistaMesa"), headers=ETAG), "304": NOT_MODIFIED}, params=[TABLE_TOKEN], tags=["The table's link"],
        operation_id="tableView")},
    "/m/{token}/lineas": {"post": op(
        "The guests add a dish: a `pendiente` line, `origen: cliente`, course 1, by the waiter's rules; the waiter sends it.", ANYONE,
        {"201": ok(ref("LineaCuenta"), "Added."),
         "409": error("`mesa_sin_cuenta` (nobody seated), `demasiadas_lineas` (30 lines from the link already wait), "
                      "`plato_agotado` or `cuenta_cerrada`.")},
        params=[TABLE_TOKEN], request=body(REQUESTS["LineaMesa"]), tags=["The table's link"], operation_id="tableAddLinea")},
    "/m/{token}/pide-cuenta": {"post": op(
        "The guests ask for the bill: `pide_cuenta` becomes true (the waiter's page shows it); the table's view.", ANYONE,
        {"200": ok(ref("VistaMesa")), "409": error("`mesa_sin_cuenta` or `cuenta_cerrada`.")},
        params=[TABLE_TOKEN], tags=["The table's link"], operation_id="tablePideCuenta")},
    "/m/{token}/eventos": {"get": stream_op(
        "The table's view as Server-Sent Events: `event: cuenta` with the body of `GET /m/{token}/cuenta` on connect and after "
        "every change of its check (the stream ends when the table gets a new link).", ANYONE, [TABLE_TOKEN], ["cuenta"], "tableEvents")},
    "/queue": {"get": {"summary": "The RestaurantQueue feed, read-only (plain text, one party a line).",
                       "operationId": "feed", "tags": ["RestaurantQueue feed"], "security": [], "x-roles": [],
                       "responses": {"200": {"description": "The feed.", "content": TEXT,
                                             "headers": ETAG}, "304": NOT_MODIFIED}}},
    "/queue/{key}": {"get": legacy("The feed, for the host app.", [HOST_KEY], "200", "feedForHost")},
    "/queue/{key}/seat/{id}": {"put": legacy("Mark a party ready.", [HOST_KEY, PARTY_ID], "200", "feedSeat")},
    "/queue/{key}/remove/{id}": {"delete": legacy("Remove a party.", [HOST_KEY, PARTY_ID], "200", "feedRemove")},
    "/queue/{key}/{name}": {"post": legacy("A party without a size: always 422.", [HOST_KEY, path_param("name", "The name.", {"type": "string", "minLength": 1})], "201", "feedAddNoSize")},
    "/queue/{key}/{name}/{size}": {"post": legacy(
        "Add a party (name percent-decoded).",
        [HOST_KEY, path_param("name", "The name.", {"type": "string", "minLength": 1}),
         path_param("size", "1…50.", {"type": "string", "minLength": 1})], "201", "feedAdd")},
}

DOCUMENT = {
    "openapi": "3.1.0",
    "info": {
        "title": "comanda",
        "version": "1.0.0",
        "summary": "A self-hosted server for one restaurant: the menu, orders, users and the walk-in waitlist.",
        "description": (
            "Every JSON route of the contract (docs/API.md). Errors are "
            "`{\"error\": {\"code\", \"message\", \"field\"?}}`. Who may call a route is in `security` "
            "(a Bearer token) and `x-roles` (the roles that pass; empty for anyone); a route for a role "
            "answers 401 without a valid token and 403 to other roles; `gerente` passes every staff check. "
            "The legacy RestaurantQueue feed (plain text) is mounted at `/queue` by default."),
    },
    "servers": [{"url": "http://127.0.0.1:8080"}],
    "tags": [{"name": t} for t in ["Operations", "Menu", "Managing the menu", "Users", "Orders", "Kitchen", "Reports", "Waitlist", "Guest", "Dining room", "Table service", "The bill", "The table's link", "Live", "RestaurantQueue feed"]],
    "paths": PATHS,
    "components": {
        "schemas": dict(sorted({**SCHEMAS, **REQUESTS}.items())),
        "responses": RESPONSES,
        "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                           "description": "`Authorization: Bearer <token>` from `POST /sesiones`."}},
    },
}


def main():
    out = json.dumps(DOCUMENT, ensure_ascii=False, indent=1) + "\n"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "openapi.json")
    if "--check" in sys.argv:
        with open(path, encoding="utf-8") as f:
            if f.read() != out:
                sys.exit("docs/openapi.json is not what scripts/openapi.py writes: run python3 scripts/openapi.py")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)


if __name__ == "__main__":
    main()
