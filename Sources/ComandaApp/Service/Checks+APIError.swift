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
        }
    }
}
