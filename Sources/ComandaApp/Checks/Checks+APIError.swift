import ComandaCore

extension CuentaError: APIErrorConvertible {
    /// The one mapping of `CuentaError` to the contract: a new case does not compile until it is here.
    var apiError: APIError {
        switch self {
        case .notFound: return .notFound("There is no such check.")
        case .lineaNotFound: return .notFound("There is no such line on this check.")
        case .comandaNotFound: return .notFound("There is no such comanda.")
        case .cerrada: return APIError(.conflict, "cuenta_cerrada", "This check is closed and can no longer change.")
        case .lineaEnviada: return APIError(.conflict, "linea_enviada", "This line has been sent to the kitchen: only the manager may void it.")
        case .lineaNoEnviada: return APIError(.conflict, "linea_no_enviada", "This line has not been sent: delete it instead.")
        case .platoAgotado(let nombre): return APIError(.conflict, "plato_agotado", "Sold out: \(nombre).")
        case .nadaQueEnviar: return APIError(.unprocessableContent, "nada_que_enviar", "There is no line waiting to be sent.")
        case .nadaQueMarchar: return APIError(.conflict, "nada_que_marchar", "No comanda of that course is held.")
        case .mesaNoLibre(let estado):
            var e = APIError(.conflict, "mesa_no_libre", "That table is \(estado): a check moves only to a free table.")
            e.estado = estado
            return e
        case .transicionNoValida(let estado):
            var e = APIError(.conflict, "transicion_no_valida", "This is \(estado): that move does not start there.")
            e.estado = estado
            return e
        case .invalid(let field, let problem): return .validation(field, problem)
        case .lineaCobrada: return APIError(.conflict, "linea_cobrada", "This line's money has already been invoiced: void the invoice first.")
        case .nadaQueCobrar: return APIError(.conflict, "nada_que_cobrar", "Nothing is owed on this check.")
        case .lineasSinEnviar: return APIError(.conflict, "lineas_sin_enviar", "Some lines have not been sent to the kitchen: send or delete them first.")
        case .empresaSinConfigurar:
            return APIError(.conflict, "empresa_sin_configurar", "Invoices need the company's NIF: set empresa in the configuration.")
        case .facturaNotFound: return .notFound("There is no such invoice.")
        case .enlaceNotFound: return .notFound("No table has this link.")
        case .mesaSinCuenta: return APIError(.conflict, "mesa_sin_cuenta", "Nobody is seated at this table now: ask the staff.")
        case .cuentaConCobros:
            return APIError(.conflict, "cuenta_con_cobros", "This check has a payment already: its discounts can no longer change.")
        case .lineaAnulada: return APIError(.conflict, "linea_anulada", "This line is voided: it has nothing to discount.")
        case .facturaSustituida:
            return APIError(.conflict, "factura_sustituida", "This invoice has been replaced by a full invoice: use that one.")
        case .facturaAnulada: return APIError(.conflict, "factura_anulada", "This invoice is voided.")
        case .facturaNoSimplificada:
            return APIError(.conflict, "factura_no_simplificada", "This is a full invoice already: it names its customer.")
        case .demasiadasLineas:
            return APIError(.conflict, "demasiadas_lineas",
                            "\(CuentaRules.maxLineasCliente) dishes are already waiting for the waiter: they will come to the table.")
        }
    }
}
