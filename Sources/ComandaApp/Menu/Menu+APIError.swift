import ComandaCore

extension PlatoError: APIErrorConvertible {
    /// The one mapping of `PlatoError` to the contract: a new case does not compile until it is here.
    var apiError: APIError {
        switch self {
        case .notFound: return .notFound("There is no dish with this id.")
        case .nombreEnUso: return APIError(.conflict, "nombre_en_uso", "Another dish on the menu has this name.", field: "nombre")
        case .invalid(let problem): return .validation(problem.field, problem.problem)
        }
    }
}

extension PlatoRules.Problem: APIErrorConvertible {
    /// A refused field of a dish: 422 with the field.
    var apiError: APIError { .validation(field, problem) }
}

extension AlergenoProblem: APIErrorConvertible {
    /// A list of allergen codes with an unknown or repeated one.
    var apiError: APIError {
        switch self {
        case .unknown(let code): return .validation("alergenos", "\(code) is not one of the 14 allergen codes (see GET /alergenos)")
        case .repeated(let code): return .validation("alergenos", "\(code) is listed twice")
        }
    }
}
