import ComandaCore
import ComandaStore
import Foundation

/// The close of the day for the printer and the invoices for the
/// accountant: `GET /informes/caja?formato=texto` and `GET /facturas?formato=csv`.
enum BillReports {
    /// *CIERRE DE CAJA* at 42 columns: the days, totals, by method, cash in
    /// the drawer, VAT by rate, tips by waiter, discounts, voids.
    static func cierre(_ c: InformeCaja, desde: String, hasta: String, restaurante: String) -> String {
        let metodos = ["efectivo": "Efectivo", "tarjeta": "Tarjeta", "otro": "Otro"]
        let dias = desde == hasta ? "Día \(fecha(desde))" : "Del \(fecha(desde)) al \(fecha(hasta))"
        var secciones: [(titulo: String, filas: [(String, String)])] = [
            ("TOTAL", [("Facturas", String(c.facturas)), ("Importe", Money.spanish(c.total)),
                       ("Anuladas", String(c.anuladas)), ("Pedidos en línea", String(c.pedidos))]),
            ("POR FORMA DE PAGO", c.porMetodo.flatMap { m in
                [(metodos[m.metodo.rawValue] ?? m.metodo.rawValue, Money.spanish(m.importe))]
                    + (m.propinas > 0 ? [("  propinas", Money.spanish(m.propinas))] : [])
            }),
            ("EFECTIVO EN CAJA", [("Cobrado en efectivo (con propinas)", Money.spanish(c.efectivoEnCaja))]),
            ("IVA", c.iva.map { ("\($0.iva) % base \(Money.spanish($0.base))", "cuota \(Money.spanish($0.cuota))") }),
        ]
        if !c.propinas.isEmpty {
            secciones.append(("PROPINAS POR CAMARERO", c.propinas.map { ($0.camarero.nombre, Money.spanish($0.propinas)) }))
        }
        if !c.descuentos.isEmpty {
            secciones.append(("DESCUENTOS E INVITACIONES", c.descuentos.map { d in
                ("\(d.cantidad) x \(d.nombre) (\(d.porcentaje == 100 ? "invitación" : "\(d.porcentaje) %"), \(d.motivo))", Money.spanish(d.importe))
            } + [("Total", Money.spanish(c.descuentos.reduce(0) { $0 + $1.importe }))]))
        }
        if !c.lineasAnuladas.isEmpty {
            secciones.append(("LÍNEAS ANULADAS", c.lineasAnuladas.map { ("\($0.cantidad) x \($0.nombre) (\($0.motivo))", $0.gerente ?? "") }))
        }
        return KitchenTicket.informe(titulo: "CIERRE DE CAJA" + (restaurante.isEmpty ? "" : " · " + restaurante), subtitulo: dias,
                                     secciones: secciones)
    }

    /// `2026-11-27` → `27/11/2026`.
    private static func fecha(_ day: String) -> String {
        let parts = day.split(separator: "-")
        return parts.count == 3 ? "\(parts[2])/\(parts[1])/\(parts[0])" : day
    }

    /// The header of the invoices' CSV.
    static let cabeceraCSV = "numero,fecha,tipo,estado,cliente_nif,cliente_nombre,metodo,base_4,cuota_4,base_10,cuota_10,base_21,cuota_21,base_otros,cuota_otros,total\n"

    /// The invoices as CSV for the accountant (RFC 4180: a field with a
    /// comma, a quote or a line break quoted, its quotes doubled; lines end
    /// in `\n`), in the order given, voided ones with their amounts.
    static func csv(_ facturas: [FilaFactura], zone: TimeZone) -> String {
        var out = cabeceraCSV
        out.reserveCapacity(cabeceraCSV.utf8.count + facturas.count * 96)
        for f in facturas {
            var parts: [Int: (base: Int, cuota: Int)] = [4: (0, 0), 10: (0, 0), 21: (0, 0), -1: (0, 0)]
            for p in f.desglose {
                let key = [4, 10, 21].contains(p.iva) ? p.iva : -1
                parts[key, default: (0, 0)].base += p.base
                parts[key, default: (0, 0)].cuota += p.cuota
            }
            var fields = [f.numero, LocalTime.day(f.fecha, zone: zone), f.tipo, f.estado, f.clienteNif ?? "", f.clienteNombre ?? "", f.metodo]
            for key in [4, 10, 21, -1] {
                fields += [Verifactu.importe(parts[key]?.base ?? 0), Verifactu.importe(parts[key]?.cuota ?? 0)]
            }
            fields.append(Verifactu.importe(f.importe))
            out += fields.map(quoted).joined(separator: ",") + "\n"
        }
        return out
    }

    /// A CSV field, quoted when it must be.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
