import ComandaCore

/// Table service as the API shows it (`JSONWriter`, keys sorted).
enum ChecksJSON {
    /// A check (`Cuenta`) with its lines and what has been paid of it.
    static func cuenta(_ c: Cuenta) -> String {
        JSONWriter.write(capacity: 360 + c.lineas.count * 260) { $0.cuenta(c) }
    }

    static func cuentas(_ list: [Cuenta]) -> String {
        JSONWriter.write(capacity: 64 + list.count * 600) { w in w.array(list) { w, c in w.cuenta(c) } }
    }

    /// A line, as an answer's body.
    static func linea(_ l: LineaCuenta) -> [UInt8] {
        JSONWriter.writeBytes(capacity: 300) { $0.linea(l) }
    }

    /// A comanda: an answer's body, an entry of the kitchen's board, an event of its stream.
    static func comanda(_ c: Comanda) -> [UInt8] {
        JSONWriter.writeBytes(capacity: 300 + c.lineas.count * 260) { $0.comanda(c) }
    }

    /// `{"comandas": […]}`, as an answer's body.
    static func comandas(_ list: [Comanda]) -> [UInt8] {
        JSONWriter.writeBytes(capacity: 64 + list.count * 600) { w in
            w.object { w in
                w.key("comandas"); w.array(list) { w, c in w.comanda(c) }
            }
        }
    }

    /// The kitchen's list: a bare array.
    static func cocina(_ list: [Comanda]) -> [UInt8] {
        JSONWriter.writeBytes(capacity: 64 + list.count * 800) { w in w.array(list) { w, c in w.comanda(c) } }
    }
}

extension JSONWriter {
    mutating func persona(_ p: Persona?) {
        guard let p else { null(); return }
        object { w in
            w.key("id"); w.int(p.id)
            w.key("nombre"); w.string(p.nombre)
        }
    }

    mutating func cuenta(_ c: Cuenta) {
        let total = c.totalCentimos
        object { w in
            w.key("abierta"); w.time(c.abierta)
            w.key("camarero"); w.persona(c.camarero.map { Persona(id: $0.id, nombre: $0.nombre) })
            w.key("cerrada"); w.time(c.cerrada)
            w.key("cobrado"); w.money(c.cobradoCentimos)
            w.key("comensales"); w.int(c.comensales)
            w.key("estado"); w.string(c.estado.rawValue)
            w.key("facturas"); w.array(c.facturas) { w, id in w.int(id) }
            w.key("id"); w.int(c.id)
            w.key("lineas"); w.array(c.lineas) { w, l in w.linea(l) }
            w.key("lineas_pagadas"); w.array(c.lineasPagadas) { w, id in w.int(id) }
            w.key("mesa"); w.string(c.mesa)
            w.key("mesa_id"); w.int(c.mesaID)
            w.key("pendiente"); w.money(total - c.cobradoCentimos)
            w.key("pide_cuenta"); w.bool(c.pideCuenta)
            w.key("propinas"); w.money(c.propinasCentimos)
            w.key("total"); w.money(total)
        }
    }

    mutating func linea(_ l: LineaCuenta) {
        object { w in
            w.key("cantidad"); w.int(l.cantidad)
            w.key("comanda_id"); w.int(l.comandaID)
            w.key("curso"); w.int(l.curso)
            w.key("descuento")
            if let d = l.descuento {
                w.object { w in
                    w.key("gerente"); w.persona(d.gerente)
                    w.key("importe"); w.money(d.importeCentimos)
                    w.key("motivo"); w.string(d.motivo)
                    w.key("porcentaje"); w.int(d.porcentaje)
                }
            } else {
                w.null()
            }
            w.key("estado"); w.string(l.estado.rawValue)
            w.key("id"); w.int(l.id)
            w.key("iva"); w.int(l.iva)
            w.key("nombre"); w.string(l.nombre)
            w.key("notas"); w.string(l.notas)
            w.key("opciones"); w.elegidas(l.opciones)
            w.key("origen"); w.string(l.origen.rawValue)
            w.key("plato_id"); w.int(l.platoID)
            w.key("precio_unitario"); w.money(l.precioUnitarioCentimos)
            w.key("subtotal"); w.money(l.subtotalCentimos)
        }
    }

    mutating func comanda(_ c: Comanda) {
        object { w in
            w.key("camarero"); w.persona(c.camarero)
            w.key("cuenta_id"); w.int(c.cuentaID)
            w.key("curso"); w.int(c.curso)
            w.key("enviada"); w.time(c.enviada)
            w.key("estado"); w.string(c.estado.rawValue)
            w.key("id"); w.int(c.id)
            w.key("lineas"); w.array(c.lineas) { w, l in w.linea(l) }
            w.key("marchada"); w.time(c.marchada)
            w.key("mesa"); w.string(c.mesa)
            w.key("preparada"); w.time(c.preparada)
        }
    }
}

extension ChecksJSON {
    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "Cuenta": .obj([
            "id": .integerID,
            "mesa_id": .integerID,
            "mesa": .text,
            "comensales": .integer(from: 1),
            "estado": .oneOf(["abierta", "cobrada", "anulada"]),
            "abierta": .time,
            "cerrada": .nullable(.time),
            "camarero": ["anyOf": [.obj(["id": .integerID, "nombre": .text]), ["type": "null"]]],
            "lineas": .list(.ref("LineaCuenta")),
            "total": .money,
            "cobrado": .money,
            "pendiente": .money,
            "propinas": .money,
            "pide_cuenta": .boolean,
            "facturas": .list(.integerID),
            "lineas_pagadas": .list(.integerID).with("description", "The lines already paid one by one (by an invoice in force): a payment by lines may not name them again."),
        ], description: "A table's check, opened by seating it, with its lines."),
        "LineaCuenta": .obj([
            "id": .integerID,
            "plato_id": .integerID,
            "nombre": .text,
            "precio_unitario": .money,
            "cantidad": .integer(1, 100),
            "opciones": .list(.obj(["grupo": .text, "valor": .text, "precio": .money])),
            "notas": .text(characters: 0...200),
            "curso": .curso,
            "estado": .oneOf(["pendiente", "en_espera", "marchada", "preparada", "servida", "anulada"]),
            "origen": .oneOf(["camarero", "cliente"]),
            "comanda_id": ["type": ["integer", "null"], "minimum": 1],
            "subtotal": .money,
            "iva": .iva,
            "descuento": .nullable(.obj(["porcentaje": .integer(1, 100), "motivo": .text(characters: 1...200),
                                         "gerente": ["anyOf": [.obj(["id": .integerID, "nombre": .text]), ["type": "null"]]],
                                         "importe": .money],
                                        description: "The manager's discount (100: an invitation); `subtotal` is the money after it.")),
        ], description: "A line of a check: price (dish plus options), name and VAT rate frozen when added; `subtotal` after its discount."),
        "Comanda": .obj([
            "id": .integerID,
            "cuenta_id": .integerID,
            "mesa": .text,
            "curso": .curso,
            "estado": .oneOf(EstadoComanda.allCases.map(\.rawValue)),
            "enviada": .time,
            "marchada": .nullable(.time),
            "preparada": .nullable(.time),
            "camarero": ["anyOf": [.obj(["id": .integerID, "nombre": .text]), ["type": "null"]]],
            "lineas": .list(.ref("LineaCuenta")),
        ], description: "What the kitchen receives: one course of one send."),
        "Comandas": .obj([
            "comandas": .list(.ref("Comanda")),
        ]),
    ]
}
