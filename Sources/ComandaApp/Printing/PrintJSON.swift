import ComandaCore
import ComandaStore

/// Printers, stations and jobs as the API shows them (`JSONWriter`, keys sorted).
enum PrintJSON {
    static func impresora(_ p: Impresora, pendientes: Int, estado: (estado: EstadoImpresora, desde: Int64)) -> String {
        JSONWriter.write(capacity: 320) { $0.impresora(p, pendientes: pendientes, estado: estado) }
    }

    static func impresoras(_ list: [(impresora: Impresora, pendientes: Int)], estado: (Int64) -> (estado: EstadoImpresora, desde: Int64)) -> String {
        JSONWriter.write(capacity: 64 + list.count * 320) { w in
            w.array(list) { w, item in w.impresora(item.impresora, pendientes: item.pendientes, estado: estado(item.impresora.id)) }
        }
    }

    static func estacion(_ e: Impresion.Estacion) -> String { JSONWriter.write(capacity: 200) { $0.estacion(e) } }

    static func estaciones(_ list: [Impresion.Estacion]) -> String {
        JSONWriter.write(capacity: 64 + list.count * 200) { w in w.array(list) { w, e in w.estacion(e) } }
    }

    static func trabajo(_ t: Trabajo) -> String { JSONWriter.write(capacity: 220) { $0.trabajo(t) } }

    static func trabajos(_ list: [Trabajo]) -> String {
        JSONWriter.write(capacity: 64 + list.count * 220) { w in w.array(list) { w, t in w.trabajo(t) } }
    }

    static let schemas: [String: Spec] = [
        "Impresora": .obj([
            "id": .integerID,
            "nombre": .text,
            "host": .text,
            "puerto": .integer(1, 65535),
            "columnas": .integer(32, 64),
            "codigo_pagina": .oneOf(["cp858", "wpc1252"]),
            "qr": .oneOf(["nativo", "imagen"]),
            "respaldo_id": .nullable(.integerID),
            "cajon": .boolean,
            "estado": .oneOf(["lista", "sin_papel", "desconectada"]),
            "pendientes": .integer(from: 0),
            "desde": .time,
        ], description: "A network printer (ESC/POS over raw TCP): `estado` as the spooler last found it, since `desde`; `pendientes` its jobs waiting."),
        "Estacion": .obj([
            "id": .integerID,
            "nombre": .text,
            "impresora_id": .integerID,
            "categorias": .list(.text),
            "por_defecto": .boolean,
        ], description: "A station: the dishes of its categories (`tipo`) print at its printer; the default one takes the rest."),
        "Trabajo": .obj([
            "id": .integerID,
            "impresora_id": .integerID,
            "tipo": .oneOf(["comanda", "marchar", "anulacion", "pedido", "factura", "precuenta", "prueba", "cierre"]),
            "estado": .oneOf(["pendiente", "impreso"]),
            "creado": .time,
            "impreso": .nullable(.time),
            "intentos": .integer(from: 0),
            "respaldo_de": .nullable(.integerID),
            "reimpresion_de": .nullable(.integerID),
        ], description: "A print job: a ticket frozen when it was queued, printed once (`prueba`: the test page; `cierre`: the close of the day)."),
    ]
}

extension JSONWriter {
    mutating func impresora(_ p: Impresora, pendientes: Int, estado: (estado: EstadoImpresora, desde: Int64)) {
        object { w in
            w.key("cajon"); w.bool(p.cajon)
            w.key("codigo_pagina"); w.string(p.codigoPagina.rawValue)
            w.key("columnas"); w.int(p.columnas)
            w.key("desde"); w.time(estado.desde)
            w.key("estado"); w.string(estado.estado.rawValue)
            w.key("host"); w.string(p.host)
            w.key("id"); w.int(p.id)
            w.key("nombre"); w.string(p.nombre)
            w.key("pendientes"); w.int(pendientes)
            w.key("puerto"); w.int(p.puerto)
            w.key("qr"); w.string(p.qr.rawValue)
            w.key("respaldo_id"); w.int(p.respaldoID)
        }
    }

    mutating func estacion(_ e: Impresion.Estacion) {
        object { w in
            w.key("categorias"); w.array(e.categorias.sorted()) { w, c in w.string(c) }
            w.key("id"); w.int(e.id)
            w.key("impresora_id"); w.int(e.impresoraID)
            w.key("nombre"); w.string(e.nombre)
            w.key("por_defecto"); w.bool(e.porDefecto)
        }
    }

    mutating func trabajo(_ t: Trabajo) {
        object { w in
            w.key("creado"); w.time(t.creado)
            w.key("estado"); w.string(t.impreso ? "impreso" : "pendiente")
            w.key("id"); w.int(t.id)
            w.key("impreso"); w.time(t.impresoEn)
            w.key("impresora_id"); w.int(t.impresoraID)
            w.key("intentos"); w.int(t.intentos)
            w.key("reimpresion_de"); w.int(t.reimpresionDe)
            w.key("respaldo_de"); w.int(t.respaldoDe)
            w.key("tipo"); w.string(t.tipo.rawValue)
        }
    }
}
