import ComandaCore
import ComandaStore
import Foundation

/// `POST /impresoras` and `PATCH /impresoras/{id}`: a printer's fields (all
/// optional for a change; `nombre` and `host` needed for a new one).
struct DatosImpresoraBody: RequestBody {
    static let schemaName = "DatosImpresora"
    static let schema: Spec = .obj([
        "nombre": ["type": "string", "minLength": 1, "maxLength": 60],
        "host": ["type": "string", "description": "An IPv4 or IPv6 address, or a host name."],
        "puerto": .integer(1, 65535),
        "columnas": .integer(32, 64),
        "codigo_pagina": ["description": "`cp858` (default) or `wpc1252`; or `{\"nombre\", \"n\"}` for a model whose `ESC t` number differs.",
                          "oneOf": [.oneOf(["cp858", "wpc1252"]), .obj(["nombre": .oneOf(["cp858", "wpc1252"]), "n": .integer(0, 255)])]],
        "qr": .oneOf(["nativo", "imagen"]),
        "respaldo_id": .nullable(.integerID),
        "cajon": .boolean,
    ], required: [], extra: true)

    let datos: AppDatabase.DatosImpresora

    init(_ body: JSONBody) throws {
        var d = AppDatabase.DatosImpresora()
        if body.has("nombre") { d.nombre = try Self.nombre(body) }
        if body.has("host") {
            let host = TextRules.trimmed(try body.string("host"))
            guard Self.hostValido(host) else { throw APIError.validation("host", "must be an IPv4 or IPv6 address or a host name") }
            d.host = host
        }
        if body.has("puerto") {
            let puerto = try body.int("puerto")
            guard (1...65535).contains(puerto) else { throw APIError.validation("puerto", "must be 1 to 65535") }
            d.puerto = puerto
        }
        if body.has("columnas") {
            let columnas = try body.int("columnas")
            guard (32...64).contains(columnas) else { throw APIError.validation("columnas", "must be 32 to 64") }
            d.columnas = columnas
        }
        switch body.object["codigo_pagina"] {
        case nil: break
        case .string(let name)?:
            guard let page = EscPos.CodigoPagina(rawValue: name) else { throw APIError.validation("codigo_pagina", "must be cp858 or wpc1252") }
            d.codigoPagina = page
            d.numeroPagina = .some(nil)
        case .object(let o)?:
            guard case .string(let name)? = o["nombre"], let page = EscPos.CodigoPagina(rawValue: name), case .int(let n)? = o["n"], (0...255).contains(n) else {
                throw APIError.validation("codigo_pagina", "must be cp858 or wpc1252, or {\"nombre\": cp858 or wpc1252, \"n\": 0 to 255}")
            }
            d.codigoPagina = page
            d.numeroPagina = .some(n)
        default: throw APIError.validation("codigo_pagina", "must be cp858 or wpc1252")
        }
        if body.has("qr") {
            guard let qr = EscPos.ModoQR(rawValue: try body.string("qr")) else { throw APIError.validation("qr", "must be nativo or imagen") }
            d.qr = qr
        }
        switch body.object["respaldo_id"] {
        case nil: break
        case .null?: d.respaldoID = .some(nil)
        case .int(let id)? where id > 0: d.respaldoID = .some(Int64(id))
        default: throw APIError.validation("respaldo_id", "must be another printer's id, or null")
        }
        if body.has("cajon") { d.cajon = try body.bool("cajon") }
        datos = d
    }

    /// An IPv4 or IPv6 address, or a host name (letters, digits, hyphens and dots, 1…253 characters).
    static func hostValido(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 { return true }
        guard (1...253).contains(host.utf8.count) else { return false }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.utf8.first != 0x2D && label.utf8.last != 0x2D
                && label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }
        }
    }
}

extension RequestBody {
    /// A printer's or a station's `nombre`: trimmed, 1…60 characters, no control characters.
    static func nombre(_ body: JSONBody) throws -> String {
        let nombre = TextRules.trimmed(try body.string("nombre"))
        guard TextRules.fits(nombre, 1...60), !TextRules.hasForbiddenScalar(nombre) else {
            throw APIError.validation("nombre", "must be 1 to 60 characters, with no control characters")
        }
        return nombre
    }
}

/// `POST /estaciones` and `PATCH /estaciones/{id}`.
struct DatosEstacionBody: RequestBody {
    static let schemaName = "DatosEstacion"
    static let schema: Spec = .obj([
        "nombre": ["type": "string", "minLength": 1, "maxLength": 60],
        "impresora_id": .integerID,
        "categorias": .list(.text),
        "por_defecto": .boolean,
    ], required: [], extra: true)

    let datos: AppDatabase.DatosEstacion

    init(_ body: JSONBody) throws {
        var d = AppDatabase.DatosEstacion()
        if body.has("nombre") { d.nombre = try Self.nombre(body) }
        if body.has("impresora_id") {
            let id = try body.int("impresora_id")
            guard id > 0 else { throw APIError.validation("impresora_id", "must be a printer") }
            d.impresoraID = Int64(id)
        }
        if body.has("categorias") {
            let list = try body.strings("categorias")
            guard Set(list).count == list.count, list.count <= 100, list.allSatisfy({ TextRules.fits($0, 1...60) }) else {
                throw APIError.validation("categorias", "must name each category (tipo) once")
            }
            d.categorias = list
        }
        if body.has("por_defecto") { d.porDefecto = try body.bool("por_defecto") }
        datos = d
    }
}

/// `POST /facturas/{id}/imprimir`, `POST /cuentas/{id}/imprimir`: the printer chosen.
struct ImprimirEn: RequestBody {
    static let schemaName = "ImprimirEn"
    static let schema: Spec = .obj(["impresora_id": .integerID], extra: true)

    let impresoraID: Int64

    init(_ body: JSONBody) throws {
        let id = try body.int("impresora_id")
        guard id > 0 else { throw APIError.validation("impresora_id", "must be a printer") }
        impresoraID = Int64(id)
    }
}

extension ImpresionError: APIErrorConvertible {
    /// The one mapping of `ImpresionError` to the contract.
    var apiError: APIError {
        switch self {
        case .impresoraNotFound: return .notFound("There is no such printer.")
        case .estacionNotFound: return .notFound("There is no such station.")
        case .trabajoNotFound: return .notFound("There is no such print job.")
        case .invalid(let field, let problem): return .validation(field, problem)
        case .duplicada: return APIError(.conflict, "impresora_duplicada", "Another printer has that name.")
        case .conTrabajos: return APIError(.conflict, "impresora_con_trabajos", "This printer has jobs waiting: print them or hand them on first.")
        case .enUso: return APIError(.conflict, "impresora_en_uso", "A station prints at this printer, or another printer backs up to it.")
        case .yaHayPorDefecto: return APIError(.conflict, "ya_hay_estacion_por_defecto", "Another station is the default one already.")
        case .categoriaEnOtraEstacion(let tipo):
            return APIError(.conflict, "categoria_en_otra_estacion", "\(tipo) already prints at another station.", field: "categorias")
        }
    }
}
