import ComandaCore

extension WaitlistError: APIErrorConvertible {
    /// The one mapping of `WaitlistError` to the contract: a new case does not compile until it is here.
    var apiError: APIError {
        switch self {
        case .invalidName(let problem): return .validation("name", problem)
        case .invalidSize: return .validation("size", "must be an integer from 1 to 50")
        case .notFound: return .notFound("There is no such party on the waitlist.")
        }
    }
}
