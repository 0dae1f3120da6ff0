import ComandaHTTP

/// The headers that keep a page to itself: what it may load and run
/// (`Content-Security-Policy`: its own scripts and styles only, no inline
/// ones), never framed by another site, and what address it passes on as a
/// referrer. Every answer already says `X-Content-Type-Options: nosniff`
/// (the HTTP layer writes it).
enum PageHeaders {
    /// Scripts, styles, images, fonts and fetches from this server only;
    /// photos previewed before upload are `blob:`; no plug-ins, no `<base>`,
    /// no framing.
    static let policy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Adds the page headers to an HTML page or a script (the CSP, no
    /// framing, `Referrer-Policy: same-origin` unless the page set a
    /// stricter one, as the guest's page does for the secret in its address).
    static func add(to response: inout HTTPResponse) {
        guard let type = response.headers["Content-Type"] else { return }
        let page = type.hasPrefix("text/html")
        guard page || type.hasPrefix("text/javascript") else { return }
        response.headers.add("Content-Security-Policy", policy)
        guard page else { return }
        response.headers.add("X-Frame-Options", "DENY")
        if !response.headers.contains("Referrer-Policy") { response.headers.add("Referrer-Policy", "same-origin") }
    }
}
