import ComandaCore
import ComandaHTTP

/// The table's own link: the guests' `/m/{token}…` (the link is the key;
/// an unknown one is 404 everywhere, the page a short HTML page) and the
/// manager's `POST /mesas/{id}/enlace` and `GET /mesas/{id}/qr.png`.
struct TableLinkRoutes: Feature {
    let links: TableLinkService
    /// The guests' writes, per link: a burst (`rafagaEnlace`, 10), then one a second.
    let limit: RateLimit
    /// The pages (the table's page is `mesa.html`).
    let pages: StaticFiles?
    /// The setting `urlPublica` (no trailing slash), else nil: `http://` and the request's `Host`.
    let urlPublica: String?
    let live: LiveStreams
    /// The tables' own streams, told of their checks, the floor and new links.
    private let linkLive: TableLinkLive

    init(links: TableLinkService, limit: RateLimit, pages: StaticFiles?, urlPublica: String?, live: LiveStreams) {
        self.links = links
        self.limit = limit
        self.pages = pages
        self.urlPublica = urlPublica
        self.live = live
        linkLive = TableLinkLive(hub: live.hub, logger: live.logger, links: links)
    }

    func subscribe(to changes: inout Changes.Subscriptions) {
        changes.on(linkLive.committed)
    }

    func register(on router: inout Routes) {
        router.describe(TableLinkJSON.schemas)
        let links = links, pages = pages, urlPublica = urlPublica, live = live, limit = limit
        // A table's own: the link is the key (unknown: 404 before any stream);
        // the stream ends when the manager makes the table a new link.
        router.addStream("/m/:token/eventos", .anyone, .stream(
            "The table's view as Server-Sent Events: `event: cuenta` with the body of `GET /m/{token}/cuenta` on connect and after every change of its check (the stream ends when the table gets a new link).",
            id: "tableEvents",
            params: [.path("token", "The table's token, from the manager's `enlace`.", .text)],
            events: ["cuenta"])) { r in
            let token = Self.token(r.params)
            let mesa = try links.mesa(token: token)
            return live.stream(TableLinkLive.topic(mesa.id), r, alive: { links.isLink(token) }) {
                ("cuenta", try links.vista(links.mesa(token: token)).body)
            }
        }
        router.add(.GET, "/m/:token", .anyone, .raw(["summary": "The table's page (HTML): the menu, and while seated its check with each line's state, adding dishes, asking for the bill.", "operationId": "tablePage", "tags": ["The table's link"], "security": [], "x-roles": [], "parameters": [.path("token", "The table's token, from the manager's `enlace`.", .text)], "responses": ["200": ["description": "The page.", "content": .html], "400": .response("BadRequest"), "404": ["description": "No table has this link: a short page saying so.", "content": .html]]])) { r in
            LinkPage.response(found: try links.find(token: Self.token(r.params)) != nil, page: "/mesa.html", gone: LinkPage.mesaGone, pages: pages)
        }
        router.add(.GET, "/m/:token/cuenta", .anyone, .op(
            "The table's name and, while seated, its check as the guests may see it.",
            id: "tableView",
            tags: ["The table's link"],
            params: [.path("token", "The table's token, from the manager's `enlace`.", .text)],
            responses: ["200": .ok(.ref("VistaMesa"), headers: .etag), "304": .notModified])) { r in
            let (body, tag) = try links.vista(try links.mesa(token: Self.token(r.params)))
            var response = HTTPResponse.json(body)
            response.headers.add("ETag", tag)
            response.headers.add("Cache-Control", "no-cache")
            response.headers.add("Referrer-Policy", "no-referrer")
            return response
        }
        // Answered after their commit, holding no thread meanwhile.
        router.add(.POST, "/m/:token/lineas", .anyone, .op(
            "The guests add a dish: a `pendiente` line, `origen: cliente`, course 1, by the waiter's rules; the waiter sends it.",
            id: "tableAddLinea",
            tags: ["The table's link"],
            params: [.path("token", "The table's token, from the manager's `enlace`.", .text)],
            body: LineaMesa.self,
            responses: [
                "201": .ok(.ref("LineaCuenta"), "Added."),
                "409": .error("`mesa_sin_cuenta` (nobody seated), `demasiadas_lineas` (30 lines from the link already wait), `plato_agotado` or `cuenta_cerrada`."),
                "429": .tooManyRequests,
            ])) { r in
            let token = Self.token(r.params)
            _ = try links.mesa(token: token)
            try limit.take(token)
            let l = try LineaMesa(r.http)
            return r.after(links.addLinea(token: token, platoID: l.platoID, cantidad: l.cantidad, notas: l.notas, opciones: l.opciones)) {
                .json(ChecksJSON.linea($0), status: .created)
            }
        }
        router.add(.POST, "/m/:token/pide-cuenta", .anyone, .op(
            "The guests ask for the bill: `pide_cuenta` becomes true (the waiter's page shows it); the table's view.",
            id: "tablePideCuenta",
            tags: ["The table's link"],
            params: [.path("token", "The table's token, from the manager's `enlace`.", .text)],
            responses: [
                "200": .ok(.ref("VistaMesa")), "409": .error("`mesa_sin_cuenta` or `cuenta_cerrada`."), "429": .tooManyRequests,
            ])) { r in
            let token = Self.token(r.params)
            _ = try links.mesa(token: token)
            try limit.take(token)
            return r.after(links.pideCuenta(token: token)) { _ in
                .json(try links.vista(try links.mesa(token: token)).body)
            }
        }
        router.add(.POST, "/mesas/:id/enlace", .staff(.gerente), .op(
            "A new link for the table: the old one is 404 from now on (and its streams end).",
            id: "regenerateEnlace",
            tags: ["The table's link"],
            params: [.path("id", "The table's id.")],
            responses: ["200": .ok(.ref("Mesa"))])) { r in
            r.after(links.regenerate(mesaID: try TablesRoutes.mesaID(r.params))) { mesa, token in
                .json(TablesJSON.mesa(mesa, enlace: token))
            }
        }
        router.add(.GET, "/mesas/:id/qr.png", .staff(.gerente), .op(
            "The QR code (PNG) of the table's absolute link: the setting `urlPublica` (else `http://` and the request's Host) followed by its `enlace`.",
            id: "mesaQR",
            tags: ["The table's link"],
            params: [.path("id", "The table's id.")],
            responses: [
                "200": ["description": "The QR code.", "content": ["image/png": ["schema": ["type": "string", "format": "binary"]]], "headers": .etag],
                "304": .notModified,
            ])) { r in
            let base = try urlPublica ?? Self.base(host: r.http.headers["Host"])
            let (png, link) = try links.qr(mesaID: try TablesRoutes.mesaID(r.params), base: base)
            var response = HTTPResponse(status: .ok, body: png)
            response.headers.add("Content-Type", "image/png")
            // Named by the link it encodes: a new link (or another host) is a new image.
            var hash = FNV1a()
            hash.add(link)
            response.headers.add("ETag", "\"" + hash.hex + "\"")
            response.headers.add("Cache-Control", "private, no-cache")
            return response
        }
    }

    static func token(_ params: PathParameters) -> String { params["token"] ?? "" }

    /// `http://` and the request's `Host`, when it is a plain host name or address (and port).
    static func base(host: String?) throws -> String {
        guard let host, AppConfiguration.isHost(host[...]) else {
            throw APIError(.badRequest, "host", "The request's Host is not a host name: set urlPublica in the configuration.")
        }
        return "http://" + host
    }
}
