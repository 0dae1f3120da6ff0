import ComandaCore
import ComandaHTTP
import ComandaStore

/// The bill: the waiters take payments and print invoices; the manager
/// voids them, lists them, reads the billing records and the cash report.
struct BillRoutes: Feature {
    let bill: BillService
    /// The remembered answers of `Idempotency-Key` (the orders' own rule).
    let idempotency: Idempotency
    /// The restaurant's name, on the printed close of the day.
    var restaurante = ""
    /// Opens the cash drawer (the printers with `cajon`), after a cash payment is written.
    var abrirCajon: @Sendable () -> Void = {}

    func register(on router: inout Routes) {
        router.describe(BillJSON.schemas)
        let bill = bill, idempotency = idempotency, restaurante = restaurante, abrirCajon = abrirCajon
        // With `Idempotency-Key` (a tap of Cobrar): a repeat answers the first answer and issues nothing.
        router.add(.POST, "/cuentas/:id/cobros", ChecksRoutes.waiters, .op(
            "Take a payment: everything owed, an `importe`, some `lineas` or one of `partes` shares (at most one of them); a tip apart; cash with `entregado` and its change. Issues one simplified invoice and its chained billing record; the check `cobrada` when nothing is owed.",
            id: "cobrar",
            tags: ["The bill"],
            params: [.path("id", "The check's id."), .idempotencyKey],
            body: NuevoCobro.self,
            responses: [
                "201": .ok(.ref("Cobro"), "Paid."),
                "409": .error("`empresa_sin_configurar`, `lineas_sin_enviar`, `nada_que_cobrar`, `cuenta_cerrada`, or `idempotency_key_in_use` (a repeat of a payment still being written: nothing issued)."),
            ])) { r in
            let cuentaID = try ChecksRoutes.id(r.params)
            let usuarioID = try r.usuario.id
            let pago = try NuevoCobro(r.http).cobrar(camareroID: usuarioID)
            // Cash: the drawer opens once the payment is written (a repeat of the same tap opens nothing).
            let cobro = { try bill.cobrar(cuentaID: cuentaID, pago).whenCommitted { _ in if pago.metodo == .efectivo { abrirCajon() } } }
            return try idempotency.after(r, usuarioID: usuarioID, cobro) { result in
                var response = HTTPResponse.json(BillJSON.cobro(result.0, result.1, result.2), status: .created)
                response.headers.add("Location", "/facturas/\(result.1.id)")
                return response
            }
        }
        router.add(.GET, "/facturas/:id", ChecksRoutes.waiters, .op(
            "One invoice.",
            id: "factura",
            tags: ["The bill"],
            params: [.path("id", "The invoice's id.")],
            responses: ["200": .ok(.ref("Factura"))])) { r in
            .json(BillJSON.factura(try bill.factura(id: try Self.id(r.params))))
        }
        router.add(.GET, "/facturas/:id/ticket", ChecksRoutes.waiters, .op(
            "The invoice for the printer: plain text, 42 columns: the company, FACTURA SIMPLIFICADA, number, lines, TOTAL, VAT per rate, the payment, the QR's text.",
            id: "facturaTicket",
            tags: ["The bill"],
            params: [.path("id", "The invoice's id.")],
            responses: ["200": .plain("The ticket.")])) { r in
            .text(try bill.ticket(id: try Self.id(r.params)))
        }
        router.add(.GET, "/facturas/:id/qr.png", ChecksRoutes.waiters, .op(
            "The invoice's QR code (ISO/IEC 18004, error correction M) encoding exactly its `qr`, as PNG; a strong ETag.",
            id: "facturaQR",
            tags: ["The bill"],
            params: [.path("id", "The invoice's id.")],
            responses: [
                "200": ["description": "The QR code.", "content": ["image/png": ["schema": ["type": "string", "format": "binary"]]], "headers": .etag],
                "304": .notModified,
            ])) { r in
            let (png, huella) = try bill.qr(id: try Self.id(r.params))
            var response = HTTPResponse(status: .ok, body: png)
            response.headers.add("Content-Type", "image/png")
            // The code never changes: its invoice's hash names it.
            response.headers.add("ETag", "\"" + String(huella.prefix(32)) + "\"")
            response.headers.add("Cache-Control", "private, max-age=86400")
            return response
        }
        router.add(.POST, "/facturas/:id/anular", .staff(.gerente), .op(
            "Void an invoice, with a reason: a cancellation record is chained and its amount is owed again on its check.",
            id: "anularFactura",
            tags: ["The bill"],
            params: [.path("id", "The invoice's id.")],
            body: Anular.self,
            responses: ["200": .ok(.ref("Factura")), "409": .error("`transicion_no_valida`: already voided.")])) { r in
            let id = try Self.id(r.params)
            let motivo = try Anular(r.http).motivo
            return r.after(try bill.anular(facturaID: id, motivo: motivo, gerenteID: try r.usuario.id)) { .json(BillJSON.factura($0)) }
        }
        router.add(.POST, "/facturas/:id/completa", ChecksRoutes.waiters, .op(
            "A full invoice (F3) for a simplified one already issued: the customer's NIF, name and address; the same amounts, lines and method. The simplified one becomes `sustituida` and keeps its billing record; the F3's record is a new `alta`.",
            id: "facturaCompleta",
            tags: ["The bill"],
            params: [.path("id", "The simplified invoice's id.")],
            body: FacturaCompleta.self,
            responses: [
                "201": .ok(.ref("Factura"), "The full invoice."),
                "409": .error("`factura_sustituida` (replaced already), `factura_anulada`, `factura_no_simplificada` (an F1 or F3), or `empresa_sin_configurar`."),
            ])) { r in
            let id = try Self.id(r.params)
            let cliente = try FacturaCompleta(r.http).cliente
            return r.after(try bill.completa(facturaID: id, cliente: cliente)) { f in
                var response = HTTPResponse.json(BillJSON.factura(f), status: .created)
                response.headers.add("Location", "/facturas/\(f.id)")
                return response
            }
        }
        router.add(.GET, "/facturas", .staff(.gerente), .op(
            "The invoices issued on the restaurant's days `desde`…`hasta` (both default to today), by number, voided ones included; `formato=csv` for the accountant.",
            id: "facturas",
            tags: ["The bill"],
            params: [.query("desde", "YYYY-MM-DD.", .text), .query("hasta", "YYYY-MM-DD.", .text),
                     .query("formato", "`csv`: the invoices as CSV (RFC 4180), one line each, with their VAT by rate.", .oneOf(["json", "csv"]))],
            responses: ["200": ["description": "The invoices (JSON), or with `formato=csv` a header line and one line per invoice.",
                                "content": Spec.json(.list(.ref("Factura"))).with("text/csv; charset=utf-8", ["schema": ["type": "string"]])],
                        "503": .readsBusy])) { r in
            let range = try DayRange(r.http, today: bill.today)
            let csv = try Self.formato(r.http, ["json", "csv"]) == "csv"
            return try r.offLoop(report: true) {
                guard csv else { return .json(BillJSON.facturas(try bill.facturas(range))) }
                var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/csv; charset=utf-8")]),
                                            body: Array(BillReports.csv(try bill.facturasResumen(range), zone: bill.zone).utf8))
                response.headers.add("Content-Disposition", "attachment; filename=\"facturas-\(range.desdeText)-\(range.hastaText).csv\"")
                return response
            }
        }
        router.add(.GET, "/verifactu/registros", .staff(.gerente), .op(
            "The billing records in chain order after position `despues`, at most `limite`; with `estado`, only those in that sending state.",
            id: "registros",
            tags: ["The bill"],
            params: [.query("despues", "A position (default 0).", .integer(from: 0)), .query("limite", "1…5000 (default 500).", .integer(1, 5000)),
                     .query("estado", "Only the records in this sending state (the manager's panel lists the rejected ones so).",
                            .oneOf(["sin_enviar", "aceptado", "aceptado_con_errores", "rechazado"]))],
            responses: ["200": .ok(.ref("Registros")), "503": .readsBusy])) { r in
            let despues = try Self.query(r.http, "despues", default: 0, 0...Int.max)
            let limite = try Self.query(r.http, "limite", default: 500, 1...5000)
            let estado = r.http.queryValue("estado")
            if let estado, !["sin_enviar", "aceptado", "aceptado_con_errores", "rechazado"].contains(estado) {
                throw APIError.validation("estado", "must be sin_enviar, aceptado, aceptado_con_errores or rechazado")
            }
            return try r.offLoop(report: true) { .json(BillJSON.registros(try bill.registros(despues: Int64(despues), limite: limite, estado: estado))) }
        }
        router.add(.GET, "/informes/caja", .staff(.gerente), .op(
            "The cash report over the restaurant's days `desde`…`hasta`: by method, cash in the drawer, VAT per rate, tips per waiter, discounts, voided lines and invoices; `formato=texto` for the printer.",
            id: "informeCaja",
            tags: ["Reports"],
            params: [.query("desde", "YYYY-MM-DD.", .text), .query("hasta", "YYYY-MM-DD.", .text),
                     .query("formato", "`texto`: the same as text at 42 columns (CIERRE DE CAJA), for the printer.", .oneOf(["json", "texto"]))],
            responses: ["200": ["description": "The report (JSON), or with `formato=texto` as text for a 42-column printer.",
                                "content": Spec.json(.ref("InformeCaja")).with("text/plain; charset=utf-8", ["schema": ["type": "string"]])],
                        "503": .readsBusy])) { r in
            let range = try DayRange(r.http, today: bill.today)
            let texto = try Self.formato(r.http, ["json", "texto"]) == "texto"
            return try r.offLoop(report: true) {
                let informe = try bill.caja(range)
                if texto { return .text(BillReports.cierre(informe, desde: range.desdeText, hasta: range.hastaText, restaurante: restaurante)) }
                return .json(BillJSON.caja(informe, desde: range.desdeText, hasta: range.hastaText))
            }
        }
    }

    /// The query's `formato`, one of `allowed` (the first by default), else 422 `formato`.
    static func formato(_ request: HTTPRequest, _ allowed: [String]) throws -> String {
        guard let value = request.queryValue("formato") else { return allowed[0] }
        guard allowed.contains(value) else { throw APIError.validation("formato", "must be " + allowed.joined(separator: " or ")) }
        return value
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
}
