import ComandaCore
import ComandaQR
import ComandaRuntime
import ComandaStore
import Foundation

/// The bill: payments and their invoices, voiding, the billing records and
/// the cash report; one place that knows the company and the series.
final class BillService: Sendable {
    let database: AppDatabase
    let now: @Sendable () -> Int64
    let zone: TimeZone
    /// The company (nil until the setting `empresa` has a NIF: payments are refused).
    let empresa: Empresa?
    let serie: String
    /// The full invoices' series (F1, F3).
    let serieCompletas: String

    /// Records go to the AEAT's test environment (the QR codes name its test host).
    let pruebas: Bool
    /// The records are sent to the AEAT (`envio` not `no`): the ticket says it is verifiable.
    let enviando: Bool
    /// When the business day closes, in minutes after midnight.
    let cierre: Int

    init(database: AppDatabase, now: @escaping @Sendable () -> Int64, zone: TimeZone, empresa: Empresa?, serie: String, serieCompletas: String = "F", pruebas: Bool = false,
         enviando: Bool = false, cierre: Int = 0) {
        self.cierre = cierre
        self.database = database
        self.pruebas = pruebas
        self.enviando = enviando
        self.now = now
        self.zone = zone
        self.empresa = empresa
        self.serie = serie
        self.serieCompletas = serieCompletas
    }

    private func emisor() throws(CuentaError) -> AppDatabase.Emisor {
        guard let empresa else { throw .empresaSinConfigurar }
        return AppDatabase.Emisor(nif: empresa.nif, serie: serie, serieCompletas: serieCompletas, zone: zone, pruebas: pruebas)
    }

    /// A full invoice (F3) replacing a simplified one, for the customer.
    func completa(facturaID: Int64, cliente: Cliente) throws -> PendingWrite<Factura> {
        database.facturaCompleta(id: facturaID, cliente: cliente, emisor: try emisor(), now: now())
    }

    func cobrar(cuentaID: Int64, _ pago: AppDatabase.Cobrar) throws -> PendingWrite<(Pago, Factura, Cuenta)> {
        database.cobrar(cuentaID: cuentaID, pago, emisor: try emisor(), now: now())
    }

    func anular(facturaID: Int64, motivo: String, gerenteID: Int64) throws -> PendingWrite<Factura> {
        // A void needs no company set now: the record names the invoice's own NIF.
        let emisor = AppDatabase.Emisor(nif: empresa?.nif ?? "", serie: serie, zone: zone)
        return database.anularFactura(id: facturaID, motivo: motivo, gerenteID: gerenteID, emisor: emisor, now: now())
    }

    func factura(id: Int64) throws -> Factura {
        guard let factura = try database.factura(id: id) else { throw CuentaError.facturaNotFound }
        return factura
    }

    /// The invoice's ticket, with the company as it is set now (or as its NIF alone).
    func ticket(id: Int64) throws -> String {
        let factura = try factura(id: id)
        return KitchenTicket.factura(factura, empresa: empresaDe(factura), zone: zone, verifactu: enviando)
    }

    /// The company an invoice names: as set now when the NIF is the same, else the invoice's NIF alone.
    func empresaDe(_ factura: Factura) -> Empresa {
        empresa.flatMap { $0.nif == factura.nif ? $0 : nil } ?? Empresa(nif: factura.nif, razonSocial: "", direccion: "")
    }

    /// The PNG of the invoice's QR code.
    func qr(id: Int64) throws -> (png: [UInt8], huella: String) {
        let factura = try factura(id: id)
        guard let png = QRCode.png(factura.qr, scale: 6) else { throw CuentaError.facturaNotFound }
        return (png, factura.huella)
    }

    /// Today's business day (`YYYY-MM-DD`): the default of the reports' days.
    var today: String { LocalTime.businessDay(now(), zone: zone, cierre: cierre) }

    /// The business days of `range` in the restaurant's zone, as [start, end).
    private func span(_ range: DayRange) throws -> (start: Int64, end: Int64) {
        let days = try range.days(zone: zone, cierre: cierre)
        guard let start = days.first?.start, let end = days.last?.end else { return (0, 0) }
        return (start, end)
    }

    /// The invoices of those days for the accountant's CSV (no lines read).
    func facturasResumen(_ range: DayRange) throws -> [FilaFactura] {
        let (start, end) = try span(range)
        return try database.facturasResumen(desde: start, hasta: end)
    }

    func facturas(_ range: DayRange) throws -> [Factura] {
        let (start, end) = try span(range)
        return try database.facturas(desde: start, hasta: end)
    }

    func registros(despues: Int64, limite: Int, estado: String? = nil) throws -> [(RegistroFacturacion, EnvioRegistro)] {
        let list = try estado.map { e throws(StoreError) in try database.registros(despues: despues, limite: limite, estado: e) }
            ?? database.registros(despues: despues, limite: limite)
        let envios = try database.envios(list.map(\.posicion))
        return list.map { ($0, envios[$0.posicion] ?? .sinEnviar) }
    }

    /// The cash report of those days: the invoices not voided by method and
    /// VAT rate, the voided ones counted, the voided lines, the tips per waiter.
    func caja(_ range: DayRange) throws -> InformeCaja {
        let (start, end) = try span(range)
        var informe = InformeCaja(try database.resumenCaja(desde: start, hasta: end), lineasAnuladas: try database.lineasAnuladas(desde: start, hasta: end))
        informe.descuentos = try database.descuentos(desde: start, hasta: end)
        return informe
    }
}

/// `GET /informes/caja`'s figures, in cents.
struct InformeCaja {
    var facturas = 0
    var total = 0
    var anuladas = 0
    var porMetodo: [(metodo: MetodoPago, importe: Int, propinas: Int)] = []
    var iva: [ParteIVA] = []
    var lineasAnuladas: [(nombre: String, cantidad: Int, motivo: String, gerente: String?)] = []
    var propinas: [(camarero: Persona, propinas: Int)] = []
    /// The cash taken: amounts of invoices not voided and every tip paid in cash (change already given back).
    var efectivoEnCaja: Int { porMetodo.filter { $0.metodo == .efectivo }.reduce(0) { $0 + $1.importe + $1.propinas } }
    /// How many of the invoices counted are online orders'.
    var pedidos = 0
    /// The discounts in force on the lines of the invoices counted.
    var descuentos: [(nombre: String, cantidad: Int, porcentaje: Int, importe: Int, motivo: String, gerente: String?)] = []

    /// From the sums SQLite made (a year of invoices is never read whole).
    init(_ r: ResumenCaja, lineasAnuladas: [(nombre: String, cantidad: Int, motivo: String, gerente: String?)]) {
        facturas = r.facturas
        total = r.total
        anuladas = r.anuladas
        iva = r.iva
        porMetodo = MetodoPago.allCases.compactMap { m in
            r.porMetodo.first { $0.metodo == m }.flatMap { $0.importe == 0 && $0.propinas == 0 ? nil : $0 }
        }
        propinas = r.propinas
        pedidos = r.pedidos
        self.lineasAnuladas = lineasAnuladas
    }
}
