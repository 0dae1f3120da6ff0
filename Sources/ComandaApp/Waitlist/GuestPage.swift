import ComandaHTTP

/// `GET /espera/{token}`: the guest's page (`Public/espera.html`, the same
/// for every guest: it reads its token from its own address). An unknown
/// token is 404 with a short page a person can read, not JSON.
enum GuestPage {
    static func response(token: String, waitlist: WaitlistService, pages: StaticFiles?) throws -> HTTPResponse {
        guard try waitlist.guest(token: token) != nil else {
            return html(.notFound, Array(gone.utf8), etag: nil)
        }
        guard case .file(let body, _, let etag) = pages?.lookup(path: "/espera.html") else {
            return APIError.notFound().response
        }
        return html(.ok, body, etag: etag)
    }

    /// The short page for a link that is not (or no longer) valid.
    static var notFound: HTTPResponse { html(.notFound, Array(gone.utf8), etag: nil) }

    private static func html(_ status: HTTPStatus, _ body: [UInt8], etag: String?) -> HTTPResponse {
        var headers = HTTPHeaders([
            ("Content-Type", "text/html; charset=utf-8"),
            ("Cache-Control", "no-cache"),
            // The address holds the guest's key: never send it on as a referrer.
            ("Referrer-Policy", "no-referrer"),
        ])
        if let etag { headers.add("ETag", etag) }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    static let gone = """
        <!doctype html>
        <html lang="es"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Enlace no válido</title>
        <link rel="stylesheet" href="/inicio.css"></head>
        <body><h1>Este enlace no es válido</h1>
        <p>No encontramos ningún grupo en la lista de espera con este enlace. Pregunte en la entrada.</p></body></html>

        """
}
