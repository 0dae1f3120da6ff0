import ComandaCore
import ComandaHTTP
import ComandaStore

/// `Idempotency-Key` on the routes that create or place orders and take
/// payments: a repeat with the same key by the same user, with the same
/// method, path and body, gets the first answer again and changes nothing;
/// the same key with anything else is 422 `idempotency_key_reused`. Only 2xx
/// answers are remembered, for 24 hours. A repeat racing the first (two
/// taps) finds the key in its own transaction, behind the first's, and is
/// 409 `idempotency_key_in_use`, having done nothing.
struct Idempotency: Sendable {
    let database: AppDatabase
    let now: @Sendable () -> Int64
    static let lifetime: Int64 = 24 * 3600

    /// A write answered after its commit (holding no thread): a repeat is
    /// answered at once from what was remembered; otherwise the write runs
    /// with its 2xx answer remembered in the same transaction (both or neither).
    func after<T>(_ r: RouteRequest, usuarioID: Int64, _ write: () throws -> PendingWrite<T>,
                  _ answer: @escaping @Sendable (T) throws -> HTTPResponse) throws -> HTTPResponse {
        let request = r.http
        guard let raw = request.headers["Idempotency-Key"] else { return r.after(try write(), answer) }
        let key = String(raw.trimmingHTTPWhitespace())
        guard (1...255).contains(key.utf8.count) else {
            throw APIError.validation("Idempotency-Key", "must be 1 to 255 characters")
        }
        let fingerprint = Digest.sha256(Array("\(request.method.rawValue) \(request.path)\n".utf8) + request.body)
        let time = now()
        if let stored = try database.idempotentAnswer(usuarioID: usuarioID, key: key, since: time - Self.lifetime) {
            guard stored.fingerprint == fingerprint else {
                throw APIError(.unprocessableContent, "idempotency_key_reused",
                               "This Idempotency-Key was used for a different request.")
            }
            return HTTPResponse(status: HTTPStatus(stored.status),
                                headers: HTTPHeaders([("Content-Type", stored.contentType), ("Idempotent-Replayed", "true")]),
                                body: stored.body)
        }
        let remembered = database.remembering(try write(), usuarioID: usuarioID, key: key, now: time,
                                              expiredBefore: time - Self.lifetime) { value in
            guard let response = try? answer(value), (200..<300).contains(response.status.code) else { return nil }
            return IdempotentAnswer(fingerprint: fingerprint, status: response.status.code, body: response.body,
                                    contentType: response.headers["Content-Type"] ?? "application/json; charset=utf-8")
        }
        return r.after(remembered, answer)
    }
}
