import ComandaCore
import ComandaHTTP
import ComandaStore

/// The bill: the waiters take payments and print invoices; the manager
/// voids them, lists them, reads the billing records and the cash report.
struct BillRoutes: Feature {
    let bill: BillService
    /// The remembered answers of `Idempotency-Key` (the orders' own rule).
    let idempotency: Idempotency

    func register(on router: inout Routes) {
        let bill = bill, idempotency = idempotency
        // With `Idempotency-Key` (a tap of Cobrar): a repeat answers the first answer and issues nothing.
        router.add(.POST, "/cuentas/:id/cobros", ChecksRoutes.waiters) { r in
            let cuentaID = try ChecksRoutes.id(r.params)
            let usuarioID = try r.usuario.id
            let pago = try Self.pago(try JSONBody(r.http), camareroID: usuarioID)
            return try idempotency.after(r, usuarioID: usuarioID, { try bill.cobrar(cuentaID: cuentaID, pago) }) { result in
                var response = HTTPResponse.json(BillJSON.cobro(result.0, result.1, result.2), status: .created)
                response.headers.add("Location", "/facturas/\(result.1.id)")
                return response
            }
        }
        router.add(.GET, "/facturas/:id", ChecksRoutes.waiters) { r in
            .json(BillJSON.factura(try bill.factura(id: try Self.id(r.params))))
        }
        router.add(.GET, "/facturas/:id/ticket", ChecksRoutes.waiters) { r in
            .text(try bill.ticket(id: try Self.id(r.params)))
        }
        router.add(.GET, "/facturas/:id/qr.png", ChecksRoutes.waiters) { r in
            let (png, huella) = try bill.qr(id: try Self.id(r.params))
            var response = HTTPResponse(status: .ok, body: png)
            response.headers.add("Content-Type", "image/png")
            // The code never changes: its invoice's hash names it.
            response.headers.add("ETag", "\"" + String(huella.prefix(32)) + "\"")
            response.headers.add("Cache-Control", "private, max-age=86400")
            return response
        }
        router.add(.POST, "/facturas/:id/anular", .staff(.gerente)) { r in
            let id = try Self.id(r.params)
            let motivo = try CuentaRules.motivo(try JSONBody(r.http).string("motivo"))
            return r.after(try bill.anular(facturaID: id, motivo: motivo, gerenteID: try r.usuario.id)) { .json(BillJSON.factura($0)) }
        }
        router.add(.GET, "/facturas", .staff(.gerente)) { r in
            let range = try DayRange(r.http, today: LocalTime.day(bill.now(), zone: bill.zone))
            return try r.offLoop { .json(BillJSON.facturas(try bill.facturas(range))) }
        }
        router.add(.GET, "/verifactu/registros", .staff(.gerente)) { r in
            let despues = try Self.query(r.http, "despues", default: 0, 0...Int.max)
            let limite = try Self.query(r.http, "limite", default: 500, 1...5000)
            return try r.offLoop { .json(BillJSON.registros(try bill.registros(despues: Int64(despues), limite: limite))) }
        }
        router.add(.GET, "/informes/caja", .staff(.gerente)) { r in
            let range = try DayRange(r.http, today: LocalTime.day(bill.now(), zone: bill.zone))
            return try r.offLoop { .json(BillJSON.caja(try bill.caja(range), desde: range.desdeText, hasta: range.hastaText)) }
        }
    }

    static func id(_ params: PathParameters) throws(CuentaError) -> Int64 {
        guard let id = params.id("id") else { throw .facturaNotFound }
        return id
    }

    /// A whole-number query parameter within `range`, else 422 with its name.
    static func query(_ request: HTTPRequest, _ name: String, default value: Int, _ range: ClosedRange<Int>) throws -> Int {
        guard let raw = request.queryValue(name) else { return value }
        guard let n = Int(raw), range.contains(n) else {
            throw APIError.validation(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound == Int.max ? "on" : String(range.upperBound))")
        }
        return n
    }

    /// An amount in euros with at most two decimals, within `range` (cents), else 422 with its field.
    static func cents(_ body: JSONBody, _ field: String, _ range: ClosedRange<Int>) throws -> Int {
        let value = try body.number(field)
        let cents = (value * 100).rounded()
        guard value.isFinite, abs(value * 100 - cents) < 1e-6 else { throw APIError.validation(field, "must have at most two decimals") }
        guard cents >= Double(range.lowerBound), cents <= Double(range.upperBound) else {
            throw APIError.validation(field, "must be from \(Verifactu.importe(range.lowerBound)) to \(Verifactu.importe(range.upperBound))")
        }
        return Int(cents)
    }

    /// The payment a body asks for: `metodo`, at most one of `importe`, `lineas`, `partes`, and `propina`, `entregado`.
    static func pago(_ body: JSONBody, camareroID: Int64) throws -> AppDatabase.Cobrar {
        let raw = try body.string("metodo")
        guard let metodo = MetodoPago(rawValue: raw) else { throw APIError.validation("metodo", "must be efectivo, tarjeta or otro") }
        let given = ["importe", "lineas", "partes"].filter(body.has)
        guard given.count <= 1 else { throw APIError.validation(given[1], "only one of importe, lineas and partes may be given") }
        let importe: ImporteCobro
        switch given.first {
        case "importe": importe = .importe(try cents(body, "importe", 1...10_000_000))
        case "lineas":
            let ids = try body.ints("lineas")
            guard ids.allSatisfy({ $0 > 0 }) else { throw APIError.validation("lineas", "must be ids of lines of this check") }
            importe = .lineas(ids.map(Int64.init))
        case "partes":
            let n = try body.int("partes")
            guard (2...50).contains(n) else { throw APIError.validation("partes", "must be a whole number from 2 to 50") }
            importe = .partes(n)
        default: importe = .todo
        }
        let propina = body.has("propina") ? try cents(body, "propina", 0...100_000) : 0
        var entregado: Int?
        if body.has("entregado") {
            guard metodo == .efectivo else { throw APIError.validation("entregado", "is for cash (efectivo) only") }
            entregado = try cents(body, "entregado", 0...10_000_000)
        }
        return AppDatabase.Cobrar(metodo: metodo, importe: importe, propinaCentimos: propina, entregadoCentimos: entregado, camareroID: camareroID)
    }
}
