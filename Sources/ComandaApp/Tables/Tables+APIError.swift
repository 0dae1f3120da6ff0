import ComandaCore
import ComandaRuntime

extension MesaError: APIErrorConvertible {
    /// The one mapping of `MesaError` to the contract: a new case does not compile until it is here.
    var apiError: APIError {
        switch self {
        case .notFound: return .notFound("There is no such table.")
        case .invalid(let field, let problem): return .validation(field, problem)
        case .duplicada: return APIError(.conflict, "mesa_duplicada", "Another table has this name.", field: "nombre")
        case .ocupada: return APIError(.conflict, "mesa_ocupada", "Only a free table can be retired.")
        case .transicionNoValida(let estado):
            var e = APIError(.conflict, "transicion_no_valida", "This table is \(estado.rawValue): that move does not start there.")
            e.estado = estado.rawValue
            return e
        case .cuentaPendiente:
            return APIError(.conflict, "cuenta_pendiente", "The table's check still has something to pay.")
        }
    }
}
