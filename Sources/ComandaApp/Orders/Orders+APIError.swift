import ComandaCore
import ComandaRuntime

extension OrderError: APIErrorConvertible {
    /// The one mapping of `OrderError` to the contract: a new case does not compile until it is here.
    var apiError: APIError {
        switch self {
        case .notFound: return .notFound("There is no such order.")
        case .lineaNotFound: return .notFound("There is no such line in this order.")
        case .realizado: return APIError(.conflict, "pedido_realizado", "This order has been placed and can no longer change.")
        case .vacio: return APIError(.unprocessableContent, "pedido_vacio", "An empty order cannot be placed.")
        case .invalid(let field, let problem): return .validation(field, problem)
        case .transicionNoValida(let estado):
            var e = APIError(.conflict, "transicion_no_valida", "This order is \(estado.rawValue): that move does not start there.")
            e.estado = estado.rawValue
            return e
        case .platoNoDisponible(let ids, let nombres, let checkout):
            let names = nombres.joined(separator: ", ")
            guard checkout else {
                return APIError(.unprocessableContent, "plato_no_disponible", "Not available now (sold out or off the menu): \(names).",
                                field: "plato_id")
            }
            var e = APIError(.conflict, "plato_no_disponible",
                             "Not available now (sold out or off the menu): \(names). Remove it to place the order.")
            e.platoIDs = ids
            return e
        }
    }
}

extension IdempotencyError: APIErrorConvertible {
    var apiError: APIError {
        switch self {
        case .enUso:
            return APIError(.conflict, "idempotency_key_in_use",
                            "A request with this Idempotency-Key is already being answered; nothing was done twice.")
        }
    }
}
