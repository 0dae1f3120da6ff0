import ComandaCore

extension UserError: APIErrorConvertible {
    /// The one mapping of `UserError` to the contract: a new case does not compile until it is here.
    var apiError: APIError {
        switch self {
        case .invalid(let field, let problem):
            return .validation(field, problem)
        case .loginTaken:
            return APIError(.conflict, "login_taken", "That login is already taken.", field: "login")
        case .invalidCredentials:
            var e = APIError(.unauthorized, "invalid_credentials", "Wrong login or password.")
            e.headers = [("WWW-Authenticate", "Bearer")]
            return e
        case .tooManyAttempts(let seconds):
            var e = APIError(.tooManyRequests, "too_many_attempts", "Too many failed logins; try again later.")
            e.headers = [("Retry-After", String(seconds))]
            return e
        case .unauthenticated:
            var e = APIError(.unauthorized, "unauthorized", "Log in first: send Authorization: Bearer with a valid token.")
            e.headers = [("WWW-Authenticate", "Bearer")]
            return e
        case .forbidden:
            return APIError(.forbidden, "forbidden", "Your role may not do this.")
        case .unknownPlato:
            return .notFound("There is no dish with this id.")
        case .unknownStaff:
            return .notFound("There is no staff member with this id.")
        case .lastManager:
            return APIError(.conflict, "ultimo_gerente", "The restaurant needs at least one active manager: this would leave none.")
        case .mustChoosePassword:
            return APIError(.forbidden, "cambiar_password", "This password was given to be used once: choose your own in `nueva` (8 characters or more).", field: "nueva")
        case .codeExpired:
            return APIError(.forbidden, "codigo_caducado", "This one-time password has expired: ask the manager for a new one.")
        case .unavailable:
            return APIError.databaseUnavailable
        }
    }
}
