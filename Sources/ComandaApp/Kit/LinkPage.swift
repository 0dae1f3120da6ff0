import ComandaHTTP

/// The pages behind a guest's own link (`/espera/{token}`, `/m/{token}`):
/// one file for every guest (it reads its token from its own address), or,
/// for a link that is not (or no longer) valid, 404 with a short page a
/// person can read, not JSON.
enum LinkPage {
    static func response(found: Bool, page: String, gone: String, pages: StaticFiles?) -> HTTPResponse {
        guard found else { return html(.notFound, Array(gone.utf8), etag: nil) }
        guard case .file(let body, _, let etag) = pages?.lookup(path: page[...]) else {
            // A server run without its pages: the page, as every answer of this route, is HTML.
            return html(.notFound, Array(noPages.utf8), etag: nil)
        }
        return html(.ok, body, etag: etag)
    }

    /// The waitlist's page without a valid link.
    static var esperaNotFound: HTTPResponse { html(.notFound, Array(esperaGone.utf8), etag: nil) }

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

    private static func gonePage(_ text: String) -> String {
        """
        <!doctype html>
        <html lang="es"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Enlace no válido</title>
        <link rel="stylesheet" href="/inicio.css"></head>
        <body><h1>Este enlace no es válido</h1>
        <p>\(text)</p></body></html>

        """
    }

    /// The server runs without its pages folder.
    static let noPages = """
        <!doctype html>
        <html lang="es"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Página no disponible</title></head>
        <body><h1>Esta página no está disponible</h1>
        <p>El servidor funciona sin sus páginas. Avise al encargado.</p></body></html>

        """
    static let esperaGone = gonePage("No encontramos ningún grupo en la lista de espera con este enlace. Pregunte en la entrada.")
    static let mesaGone = gonePage("Este código ya no corresponde a ninguna mesa. Pida la carta a su camarero.")
}
