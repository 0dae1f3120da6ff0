/// What a payment on a check comes to, worked out from the check as the
/// payment's transaction read it, before anything is written: the amount,
/// its VAT parts, the lines it pays (by lines) and those its invoice lists,
/// the change, and whether it settles the check. Pure: the store reads,
/// asks for the plan, and writes it (`AppDatabase.cobrar`).
public struct PlanCobro: Sendable, Equatable {
    /// What the invoice is for, in cents, VAT included.
    public var importeCentimos: Int
    /// Its VAT parts, rate by rate.
    public var desglose: [ParteIVA]
    /// The lines paid one by one (a payment by lines), else none.
    public var pagadas: [LineaCuenta]
    /// What the invoice lists: the lines paid, or every line not voided.
    public var listadas: [LineaFactura]
    /// Cash handed over minus the amount and the tip (cash given only).
    public var cambioCentimos: Int?
    /// The payment pays everything still owed: the check is `cobrada` after it.
    public var cierra: Bool

    public init(importeCentimos: Int, desglose: [ParteIVA], pagadas: [LineaCuenta], listadas: [LineaFactura], cambioCentimos: Int?,
                cierra: Bool) {
        self.importeCentimos = importeCentimos
        self.desglose = desglose
        self.pagadas = pagadas
        self.listadas = listadas
        self.cambioCentimos = cambioCentimos
        self.cierra = cierra
    }

    /// The plan of a payment of `importe` (with `propina` and, in cash,
    /// `entregado`) on a check in `estado` with `lineas`, of which
    /// `cobrado` is paid already by invoices whose VAT parts are `facturado`,
    /// and whose lines `yaPagadas` were paid one by one (read for a payment
    /// by lines only), for a full invoice when `completa`. The refusals are the contract's.
    public static func make(estado: EstadoCuenta, lineas: [LineaCuenta], cobrado: Int, facturado: [[ParteIVA]], yaPagadas: Set<Int64>,
                            importe: ImporteCobro, propina: Int, entregado: Int?, completa: Bool = false) throws(CuentaError) -> PlanCobro {
        switch estado {
        case .cobrada: throw .nadaQueCobrar
        case .anulada: throw .cerrada
        case .abierta: break
        }
        guard !lineas.contains(where: { $0.estado == .pendiente }) else { throw .lineasSinEnviar }
        let total = lineas.reduce(0) { $0 + $1.subtotalCentimos }
        let pendiente = total - cobrado
        guard pendiente > 0 else { throw .nadaQueCobrar }
        let porTipo = Cobro.pendientePorTipo(lineas: lineas, facturado: facturado)

        let amount: Int
        let parts: [Int: Int]
        var pagadas: [LineaCuenta] = []
        switch importe {
        case .todo:
            amount = pendiente
            parts = Cobro.partes(importe: amount, porTipo: porTipo)
        case .importe(let asked):
            guard asked >= 1, asked <= pendiente else {
                throw .invalid(field: "importe", problem: "must be from 0.01 to what is owed (\(Verifactu.importe(pendiente)))")
            }
            amount = asked
            parts = Cobro.partes(importe: amount, porTipo: porTipo)
        case .partes(let n):
            amount = Cobro.parte(pendiente: pendiente, partes: n)
            parts = Cobro.partes(importe: amount, porTipo: porTipo)
        case .lineas(let ids):
            guard !ids.isEmpty, Set(ids).count == ids.count else { throw .invalid(field: "lineas", problem: "must name each line once") }
            for id in ids {
                guard let linea = lineas.first(where: { $0.id == id }), linea.estado != .anulada, linea.estado != .pendiente,
                      !yaPagadas.contains(id) else {
                    throw .invalid(field: "lineas", problem: "line \(id) is not a sent line of this check that is still to pay")
                }
                pagadas.append(linea)
            }
            var byRate: [Int: Int] = [:]
            for l in pagadas { byRate[l.iva, default: 0] += l.subtotalCentimos }
            guard byRate.allSatisfy({ $0.value <= porTipo[$0.key, default: 0] }) else {
                throw .invalid(field: "lineas", problem: "those lines' money has already been paid")
            }
            amount = byRate.values.reduce(0, +)
            guard amount >= 1 else { throw .invalid(field: "lineas", problem: "those lines come to nothing") }
            parts = Cobro.partes(importe: amount, porTipo: byRate)
        }
        // An invoice may not come to more than the bound (a check that does, kept from before the bound, is paid in parts).
        guard amount <= Cobro.maximoCentimos else {
            let field: String
            switch importe {
            case .lineas: field = "lineas"
            case .partes: field = "partes"
            case .importe, .todo: field = "importe"
            }
            throw .invalid(field: field, problem: "an invoice may come to at most \(Verifactu.importe(Cobro.maximoCentimos)) €; pay it in parts")
        }
        // Above 3,000 € the invoice must be a full one (RD 1619/2012, art. 4): the guest gives their data.
        guard completa || amount <= Cobro.maximoSimplificadaCentimos else {
            throw .invalid(field: "cliente", problem: "is needed above \(Verifactu.importe(Cobro.maximoSimplificadaCentimos)) €: a simplified invoice may not come to more (a full invoice, with the customer's NIF, name and address)")
        }
        var cambio: Int?
        if let entregado {
            guard entregado >= amount + propina else {
                throw .invalid(field: "entregado", problem: "must be at least the amount and the tip (\(Verifactu.importe(amount + propina)))")
            }
            cambio = entregado - amount - propina
        }
        let listadas = (pagadas.isEmpty ? lineas.filter { $0.estado != .anulada } : pagadas)
            .map { LineaFactura(nombre: $0.nombre, cantidad: $0.cantidad, importeCentimos: $0.subtotalCentimos, descuento: $0.descuento?.porcentaje,
                                iva: $0.iva, precioUnitarioCentimos: $0.precioUnitarioCentimos) }
        return PlanCobro(importeCentimos: amount, desglose: Cobro.desglose(parts), pagadas: pagadas, listadas: listadas,
                         cambioCentimos: cambio, cierra: amount == pendiente)
    }
}
