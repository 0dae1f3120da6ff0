import Crypto
import Foundation

/// How a payment was made.
public enum MetodoPago: String, Sendable, CaseIterable {
    case efectivo, tarjeta, otro
}

/// An invoice's state: issued, voided by the manager, or replaced by a full
/// invoice (F3) the customer asked for afterwards (never deleted).
public enum EstadoFactura: String, Sendable {
    case emitida, anulada, sustituida
}

/// The kind of invoice, as the billing record's `TipoFactura` names it:
/// simplified (F2), full (F1), or full replacing a simplified one (F3).
public enum TipoFactura: String, Sendable {
    case F1, F2, F3

    /// A full invoice: it names the customer and each line's price before VAT.
    public var completa: Bool { self != .F2 }
}

/// The business customer of a full invoice: its tax id, name and address.
public struct Cliente: Sendable, Equatable {
    public var nif: String
    public var nombre: String
    public var direccion: String

    public init(nif: String, nombre: String, direccion: String) {
        self.nif = nif
        self.nombre = nombre
        self.direccion = direccion
    }

    /// The customer as the contract takes it: the tax id trimmed, upper case
    /// and with its check character right (`Empresa.nifValido`), the name
    /// 1…120 characters and the address 1…200, both trimmed; a problem names
    /// `cliente.nif`, `cliente.nombre` or `cliente.direccion`.
    public static func validado(nif: String, nombre: String, direccion: String) throws(CuentaError) -> Cliente {
        let nif = TextRules.trimmed(nif).uppercased()
        guard Empresa.nifValido(nif) else {
            throw .invalid(field: "cliente.nif", problem: "must be a Spanish NIF, NIE or CIF with its right check character")
        }
        func text(_ value: String, _ field: String, _ most: Int) throws(CuentaError) -> String {
            let value = TextRules.trimmed(value)
            guard TextRules.fits(value, 1...most) else { throw .invalid(field: field, problem: "must be 1 to \(most) characters") }
            guard !TextRules.hasForbiddenScalar(value) else { throw .invalid(field: field, problem: TextRules.problem) }
            return value
        }
        return Cliente(nif: nif, nombre: try text(nombre, "cliente.nombre", 120), direccion: try text(direccion, "cliente.direccion", 200))
    }
}

/// One VAT rate's part of an invoice: `base + cuota = parte`, in cents.
public struct ParteIVA: Sendable, Equatable {
    public var iva: Int
    public var base: Int
    public var cuota: Int
    public var parte: Int { base + cuota }

    public init(iva: Int, base: Int, cuota: Int) {
        self.iva = iva
        self.base = base
        self.cuota = cuota
    }
}

/// A line as an invoice lists it.
public struct LineaFactura: Sendable, Equatable {
    public var nombre: String
    public var cantidad: Int
    /// The line's money after its discount.
    public var importeCentimos: Int
    /// The discount's percentage when the line had one (100: invited).
    public var descuento: Int?
    /// The line's VAT rate and its unit price with VAT before the discount
    /// (kept since full invoices: older invoices' lines have neither).
    public var iva: Int?
    public var precioUnitarioCentimos: Int?

    public init(nombre: String, cantidad: Int, importeCentimos: Int, descuento: Int? = nil, iva: Int? = nil, precioUnitarioCentimos: Int? = nil) {
        self.nombre = nombre
        self.cantidad = cantidad
        self.importeCentimos = importeCentimos
        self.descuento = descuento
        self.iva = iva
        self.precioUnitarioCentimos = precioUnitarioCentimos
    }

    /// The unit price before VAT in ten-thousandths of a euro (a full
    /// invoice's `precio_unitario`, four decimals): the price with VAT × 100
    /// / (100 + rate), rounded half up.
    public var precioSinIVADiezmilesimas: Int? {
        guard let iva, let precio = precioUnitarioCentimos else { return nil }
        return Cobro.halfUp(precio * 100, times: 100, over: 100 + iva)
    }
}

/// An invoice: simplified (*factura simplificada*, one per payment or
/// delivered online order), or full (F1 at payment, F3 replacing a simplified one).
public struct Factura: Sendable, Equatable {
    public var id: Int64
    public var numero: String
    public var fecha: Int64
    /// The check and table it was paid at (nil for an online order's).
    public var cuentaID: Int64?
    public var mesa: String?
    /// The online order it invoices (nil for a table's).
    public var pedidoID: Int64?
    public var tipo: TipoFactura = .F2
    /// The customer of a full invoice.
    public var cliente: Cliente?
    /// The number of the simplified invoice an F3 replaces.
    public var sustituye: String?
    /// The number of the F3 that replaced this one.
    public var sustituidaPor: String?
    public var importeCentimos: Int
    public var desglose: [ParteIVA]
    public var lineas: [LineaFactura]
    public var metodo: MetodoPago
    public var estado: EstadoFactura
    public var huella: String
    public var qr: String
    /// Cash handed over and change (efectivo only), for the ticket.
    public var entregadoCentimos: Int?
    public var cambioCentimos: Int?
    /// Set when voided.
    public var motivoAnulacion: String?
    /// The issuer's NIF when it was issued.
    public var nif = ""

    public var cuotaCentimos: Int { desglose.reduce(0) { $0 + $1.cuota } }

    public init(id: Int64, numero: String, fecha: Int64, cuentaID: Int64?, mesa: String?, importeCentimos: Int, desglose: [ParteIVA],
                lineas: [LineaFactura], metodo: MetodoPago, estado: EstadoFactura, huella: String, qr: String,
                entregadoCentimos: Int? = nil, cambioCentimos: Int? = nil, motivoAnulacion: String? = nil) {
        self.id = id
        self.numero = numero
        self.fecha = fecha
        self.cuentaID = cuentaID
        self.mesa = mesa
        self.importeCentimos = importeCentimos
        self.desglose = desglose
        self.lineas = lineas
        self.metodo = metodo
        self.estado = estado
        self.huella = huella
        self.qr = qr
        self.entregadoCentimos = entregadoCentimos
        self.cambioCentimos = cambioCentimos
        self.motivoAnulacion = motivoAnulacion
    }
}

/// The company that issues the invoices (setting `empresa`).
public struct Empresa: Sendable, Equatable {
    public var nif: String
    public var razonSocial: String
    public var direccion: String

    public init(nif: String, razonSocial: String, direccion: String) {
        self.nif = nif
        self.razonSocial = razonSocial
        self.direccion = direccion
    }

    /// A Spanish tax id with its check character: a NIF (8 digits and the
    /// letter of the number mod 23), a NIE (X, Y or Z for 0, 1, 2, then 7
    /// digits and the same letter), a NIF of K, L or M (7 digits and the
    /// organisations' control letter), or a CIF (an organisation's letter, 7
    /// digits and its control: a digit for A, B, E, H; a letter for K, L, M,
    /// N, P, Q, R, S, W; either for the others), case ignored.
    public static func nifValido(_ text: String) -> Bool {
        let c = Array(text.uppercased().unicodeScalars)
        guard c.count == 9, c.allSatisfy({ $0.isASCII }) else { return false }
        let digit = { (s: Unicode.Scalar) in ("0"..."9").contains(s) }
        let value = { (s: Unicode.Scalar) in Int(s.value) - 48 }
        let letters = Array("TRWAGMYFPDXBNJZSQVHLCKE".unicodeScalars)
        if digit(c[0]) {
            guard c[0..<8].allSatisfy(digit) else { return false }
            return letters[c[0..<8].reduce(0) { $0 * 10 + value($1) } % 23] == c[8]
        }
        if let prefix = ["X": 0, "Y": 1, "Z": 2][Character(c[0])] {
            guard c[1..<8].allSatisfy(digit) else { return false }
            return letters[c[1..<8].reduce(prefix) { $0 * 10 + value($1) } % 23] == c[8]
        }
        guard "ABCDEFGHJKLMNPQRSUVW".unicodeScalars.contains(c[0]), c[1..<8].allSatisfy(digit) else { return false }
        // The CIF's control: the digits in even places summed, those in odd
        // places doubled and their digits summed; 10 less the units (0 for 10).
        var sum = 0
        for (i, s) in c[1..<8].enumerated() {
            let d = value(s)
            sum += i % 2 == 1 ? d : (d * 2) / 10 + (d * 2) % 10
        }
        let control = (10 - sum % 10) % 10
        let controlLetter = Array("JABCDEFGHI".unicodeScalars)[control]
        if "ABEH".unicodeScalars.contains(c[0]) { return c[8] == Unicode.Scalar(UInt8(48 + control)) }
        if "KLMNPQRSW".unicodeScalars.contains(c[0]) { return c[8] == controlLetter }
        return c[8] == Unicode.Scalar(UInt8(48 + control)) || c[8] == controlLetter
    }
}

/// The rules of a payment's amount and its VAT breakdown, in integer cents.
public enum Cobro {
    /// The most a line, a check, an online order or an invoice may come to:
    /// 999,999.99 € (the contract's bound; more is 422). Money below it is
    /// far from `Int`'s limits, and the products below are taken in 128 bits.
    public static let maximoCentimos = 99_999_999

    /// The most a simplified invoice may come to at a restaurant: 3,000.00 €
    /// (RD 1619/2012, art. 4). Above it the customer's data make it a full one.
    public static let maximoSimplificadaCentimos = 300_000

    /// `a / b` rounded half up (a, b ≥ 0, b > 0), in 128 bits: no `a` overflows.
    public static func halfUp(_ a: Int, _ b: Int) -> Int { Int((2 * Int128(a) + Int128(b)) / (2 * Int128(b))) }

    /// `a × m / b` rounded half up (a, m ≥ 0, b > 0, a × m / b ≤ Int.max), the product in 128 bits.
    public static func halfUp(_ a: Int, times m: Int, over b: Int) -> Int {
        Int((2 * Int128(a) * Int128(m) + Int128(b)) / (2 * Int128(b)))
    }

    /// One of `n` shares of what is owed, rounded half up to the cent (the
    /// next guest asks for `n - 1` shares of what is then owed, so they add up).
    /// (A cent at least: a share of a remainder smaller than the shares, 0.01 € in 3, is the cent, not an invoice of nothing.)
    public static func parte(pendiente: Int, partes n: Int) -> Int { min(pendiente, max(1, halfUp(pendiente, n))) }

    /// The VAT parts of a payment of `importe` when the money not yet
    /// invoiced is `porTipo` (rate → cents, adding up to what is owed): each
    /// rate's part in proportion, rounded half up, the remainder cent(s) to
    /// the largest part (on a tie, the higher rate). Paid by lines, `porTipo`
    /// is those lines' money and `importe` their sum: the parts are exactly it.
    public static func partes(importe: Int, porTipo: [Int: Int]) -> [Int: Int] {
        let pendiente = porTipo.values.reduce(0, +)
        guard pendiente > 0, importe > 0 else { return [:] }
        var parts: [Int: Int] = [:]
        for (rate, money) in porTipo where money > 0 { parts[rate] = halfUp(importe, times: money, over: pendiente) }
        let remainder = importe - parts.values.reduce(0, +)
        if remainder != 0, let largest = parts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key {
            parts[largest, default: 0] += remainder
        }
        return parts.filter { $0.value != 0 }
    }

    /// The money of each rate not yet invoiced on a check: its lines' money
    /// (voided ones count 0) less the parts of its invoices not voided.
    public static func pendientePorTipo(lineas: [LineaCuenta], facturado: [[ParteIVA]]) -> [Int: Int] {
        var money: [Int: Int] = [:]
        for l in lineas where l.estado != .anulada { money[l.iva, default: 0] += l.subtotalCentimos }
        for desglose in facturado { for p in desglose { money[p.iva, default: 0] -= p.parte } }
        return money
    }

    /// The breakdown of VAT-inclusive parts: per rate `base` = part × 100 /
    /// (100 + rate) rounded half up, `cuota` = part − base; rates ascending,
    /// none whose part is 0.
    public static func desglose(_ parts: [Int: Int]) -> [ParteIVA] {
        parts.keys.sorted().compactMap { rate in
            guard let part = parts[rate], part != 0 else { return nil }
            let base = part >= 0 ? halfUp(part, times: 100, over: 100 + rate) : -halfUp(-part, times: 100, over: 100 + rate)
            return ParteIVA(iva: rate, base: base, cuota: part - base)
        }
    }
}

/// VERI*FACTU's billing records: the text each `Huella` is the SHA-256 of,
/// the formats of dates and amounts, and the invoice's QR text (AEAT's
/// published specifications, as the contract pins them).
public enum Verifactu {
    /// The fields of a record, in the order its hash text names them.
    public enum Registro: Sendable, Equatable {
        case alta(idEmisor: String, numSerie: String, fecha: String, tipoFactura: String, cuotaTotal: String, importeTotal: String,
                  fechaHoraHuso: String)
        case anulacion(idEmisor: String, numSerie: String, fecha: String, fechaHoraHuso: String)

        /// The text hashed, with the previous record's `Huella` ("" for the first).
        public func texto(anterior: String) -> String {
            switch self {
            case let .alta(id, num, fecha, tipo, cuota, importe, gen):
                return "IDEmisorFactura=\(id)&NumSerieFactura=\(num)&FechaExpedicionFactura=\(fecha)&TipoFactura=\(tipo)"
                    + "&CuotaTotal=\(cuota)&ImporteTotal=\(importe)&Huella=\(anterior)&FechaHoraHusoGenRegistro=\(gen)"
            case let .anulacion(id, num, fecha, gen):
                return "IDEmisorFacturaAnulada=\(id)&NumSerieFacturaAnulada=\(num)&FechaExpedicionFacturaAnulada=\(fecha)"
                    + "&Huella=\(anterior)&FechaHoraHusoGenRegistro=\(gen)"
            }
        }

        /// SHA-256 of the UTF-8 text, upper-case hex (64 characters).
        public func huella(anterior: String) -> String {
            SHA256.hash(data: Array(texto(anterior: anterior).utf8)).map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return byte < 16 ? "0" + hex : hex
            }.joined()
        }
    }

    /// Cents as the records write amounts: two decimals and a point (`3.00`, `-1.05`).
    public static func importe(_ cents: Int) -> String {
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return (cents < 0 ? "-" : "") + String(magnitude / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    private static func parts(_ t: Int64, _ zone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    private static func pad(_ n: Int, _ width: Int = 2) -> String { LocalTime.pad(n, width) }

    /// A record's moment, computed once: the invoice number's year, `FechaExpedicionFactura` and `FechaHoraHusoGenRegistro`.
    public static func momento(_ t: Int64, zone: TimeZone) -> (anio: Int, fecha: String, fechaHoraHuso: String) {
        let c = parts(t, zone)
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
        let minutes = abs(offset) / 60
        let year = c.year ?? 0
        let fecha = pad(c.day ?? 0) + "-" + pad(c.month ?? 0) + "-" + pad(year, 4)
        let gen = pad(year, 4) + "-" + pad(c.month ?? 0) + "-" + pad(c.day ?? 0) + "T" + pad(c.hour ?? 0) + ":" + pad(c.minute ?? 0)
            + ":" + pad(c.second ?? 0) + (offset < 0 ? "-" : "+") + pad(minutes / 60) + ":" + pad(minutes % 60)
        return (year, fecha, gen)
    }

    /// `dd-mm-yyyy` in the restaurant's zone.
    public static func fecha(_ t: Int64, zone: TimeZone) -> String { momento(t, zone: zone).fecha }

    /// The year of `t` in the restaurant's zone (the invoice number's).
    public static func anio(_ t: Int64, zone: TimeZone) -> Int { momento(t, zone: zone).anio }

    /// `yyyy-mm-ddThh:mm:ss+hh:mm` in the restaurant's zone.
    public static func fechaHoraHuso(_ t: Int64, zone: TimeZone) -> String { momento(t, zone: zone).fechaHoraHuso }

    /// `{serie}{YYYY}-{NNNNNN}`.
    public static func numero(serie: String, anio: Int, secuencia: Int) -> String {
        serie + pad(anio, 4) + "-" + pad(secuencia, 6)
    }

    /// The AEAT's checking address for an invoice, each value percent-encoded
    /// (unreserved characters kept); `pruebas`: the AEAT's test host, for a
    /// system sending to its test environment.
    public static func qr(nif: String, numSerie: String, fecha: String, importe: String, pruebas: Bool = false) -> String {
        (pruebas ? "https://prewww2.aeat.es" : "https://www2.agenciatributaria.gob.es")
            + "/wlpl/TIKE-CONT/ValidarQR?nif=\(encode(nif))&numserie=\(encode(numSerie))"
            + "&fecha=\(encode(fecha))&importe=\(encode(importe))"
    }

    /// Seconds before trying again after `fallos` failures in a row: 5, 10, 20, … at most an hour.
    public static func reintento(fallos: Int) -> Int {
        guard fallos > 0 else { return 0 }
        return fallos >= 11 ? 3600 : min(3600, 5 << (fallos - 1))
    }

    /// Where the billing records go: nowhere, the AEAT's test environment, or its production one.
    public enum Envio: String, Sendable, CaseIterable {
        case no, pruebas, produccion

        /// The SOAP service's address by default (nil: nothing is sent).
        public var url: String? {
            switch self {
            case .no: nil
            case .pruebas: "https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP"
            case .produccion: "https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP"
            }
        }
    }

    /// RFC 3986 percent-encoding: ALPHA, DIGIT, `-`, `.`, `_`, `~` kept.
    public static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (byte < 16 ? "0" : "") + hex
            }
        }
        return out
    }
}

/// A payment taken (`cobro`): its amount is invoiced, its tip is not.
public struct Pago: Sendable, Equatable {
    public var id: Int64
    public var metodo: MetodoPago
    public var importeCentimos: Int
    public var propinaCentimos: Int
    public var entregadoCentimos: Int?
    public var cambioCentimos: Int?
    public var fecha: Int64

    public init(id: Int64, metodo: MetodoPago, importeCentimos: Int, propinaCentimos: Int, entregadoCentimos: Int?, cambioCentimos: Int?,
                fecha: Int64) {
        self.id = id
        self.metodo = metodo
        self.importeCentimos = importeCentimos
        self.propinaCentimos = propinaCentimos
        self.entregadoCentimos = entregadoCentimos
        self.cambioCentimos = cambioCentimos
        self.fecha = fecha
    }
}

/// What a payment pays: everything owed, an amount, some lines, or one of `n` shares.
public enum ImporteCobro: Sendable, Equatable {
    case todo
    case importe(Int)
    case lineas([Int64])
    case partes(Int)
}

/// One billing record as the chain keeps it (`GET /verifactu/registros`).
public struct RegistroFacturacion: Sendable, Equatable {
    public var posicion: Int64
    public var registro: Verifactu.Registro
    public var huella: String
    public var huellaAnterior: String
    /// The record before: its emitter, number and date (an `anulacion`'s are the voided invoice's) and its `Huella`.
    public var anterior: (idEmisor: String, numSerie: String, fecha: String, huella: String)?

    public init(posicion: Int64, registro: Verifactu.Registro, huella: String, huellaAnterior: String,
                anterior: (idEmisor: String, numSerie: String, fecha: String, huella: String)?) {
        self.posicion = posicion
        self.registro = registro
        self.huella = huella
        self.huellaAnterior = huellaAnterior
        self.anterior = anterior
    }

    public static func == (a: RegistroFacturacion, b: RegistroFacturacion) -> Bool {
        a.posicion == b.posicion && a.registro == b.registro && a.huella == b.huella && a.huellaAnterior == b.huellaAnterior
            && a.anterior?.idEmisor == b.anterior?.idEmisor && a.anterior?.numSerie == b.anterior?.numSerie
            && a.anterior?.fecha == b.anterior?.fecha && a.anterior?.huella == b.anterior?.huella
    }
}
