import ComandaCore
import ComandaHTTP

/// The table's own link: the guests' `/m/{token}…` (the link is the key;
/// an unknown one is 404 everywhere, the page a short HTML page) and the
/// manager's `POST /mesas/{id}/enlace` and `GET /mesas/{id}/qr.png`.
struct TableLinkRoutes: Feature {
    let links: TableLinkService
    /// The pages (the table's page is `mesa.html`).
    let pages: StaticFiles?
    /// The setting `urlPublica` (no trailing slash), else nil: `http://` and the request's `Host`.
    let urlPublica: String?
    let live: LiveStreams
    /// The tables' own streams, told of their checks, the floor and new links.
    private let linkLive: TableLinkLive

    init(links: TableLinkService, pages: StaticFiles?, urlPublica: String?, live: LiveStreams) {
        self.links = links
        self.pages = pages
        self.urlPublica = urlPublica
        self.live = live
        linkLive = TableLinkLive(hub: live.hub, logger: live.logger, links: links)
    }

    func subscribe(to changes: inout Changes.Subscriptions) {
        changes.on(linkLive.committed)
    }

    func register(on router: inout Routes) {
        let links = links, pages = pages, urlPublica = urlPublica, live = live
        // A table's own: the link is the key (unknown: 404 before any stream);
        // the stream ends when the manager makes the table a new link.
        router.addStream("/m/:token/eventos", .anyone) { r in
            let token = Self.token(r.params)
            let mesa = try links.mesa(token: token)
            return live.stream(TableLinkLive.topic(mesa.id), r, alive: { links.isLink(token) }) {
                ("cuenta", try links.vista(links.mesa(token: token)).body)
            }
        }
        router.add(.GET, "/m/:token", .anyone) { r in
            LinkPage.response(found: try links.find(token: Self.token(r.params)) != nil, page: "/mesa.html", gone: LinkPage.mesaGone, pages: pages)
        }
        router.add(.GET, "/m/:token/cuenta", .anyone) { r in
            let (body, tag) = try links.vista(try links.mesa(token: Self.token(r.params)))
            var response = HTTPResponse.json(body)
            response.headers.add("ETag", tag)
            response.headers.add("Cache-Control", "no-cache")
            response.headers.add("Referrer-Policy", "no-referrer")
            return response
        }
        // Answered after their commit, holding no thread meanwhile.
        router.add(.POST, "/m/:token/lineas", .anyone) { r in
            let token = Self.token(r.params)
            _ = try links.mesa(token: token)
            let body = try JSONBody(r.http)
            let platoID = try body.int("plato_id")
            guard platoID > 0 else { throw APIError.validation("plato_id", "is not a dish on the menu") }
            let cantidad = try CuentaRules.cantidad(try body.optionalInt("cantidad") ?? 1)
            let notas = body.has("notas") ? try CuentaRules.notas(try body.string("notas")) : ""
            let opciones = body.has("opciones") ? try body.ints("opciones").map(Int64.init) : []
            return r.after(links.addLinea(token: token, platoID: Int64(platoID), cantidad: cantidad, notas: notas, opciones: opciones)) {
                .json(ChecksJSON.linea($0), status: .created)
            }
        }
        router.add(.POST, "/m/:token/pide-cuenta", .anyone) { r in
            let token = Self.token(r.params)
            return r.after(links.pideCuenta(token: token)) { _ in
                .json(try links.vista(try links.mesa(token: token)).body)
            }
        }
        router.add(.POST, "/mesas/:id/enlace", .staff(.gerente)) { r in
            r.after(links.regenerate(mesaID: try TablesRoutes.mesaID(r.params))) { mesa, token in
                .json(TablesJSON.mesa(mesa, enlace: token))
            }
        }
        router.add(.GET, "/mesas/:id/qr.png", .staff(.gerente)) { r in
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
