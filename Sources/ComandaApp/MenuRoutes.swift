import ComandaCore
import ComandaHTTP

/// `GET /platos`, `/platos/{id}`, `/carta` and `/categorias`.
enum MenuRoutes {
    static func register(on router: inout Routes, catalog: MenuCatalog) {
        router.add(.GET, "/platos", .anyone) { r in
            let request = r.http
            let (q, tipo, key) = filter("platos", request)
            let answer = try catalog.answer(key: key) { menu in
                try JSON.encode(menu.search(query: q, tipo: tipo).map(PlatoDTO.init))
            }
            return respond(answer)
        }
        router.add(.GET, "/platos/:id", .anyone) { r in
            guard let raw = r.params["id"], let id = Int64(raw), id > 0 else {
                throw APIError.notFound("There is no dish with this id.")
            }
            let answer = try catalog.answer(key: "plato\u{0}\(id)") { menu in
                guard let plato = menu.plato(id: id) else { throw APIError.notFound("There is no dish with this id.") }
                return try JSON.encode(PlatoDTO(plato))
            }
            return respond(answer)
        }
        router.add(.GET, "/carta", .anyone) { r in
            let request = r.http
            let (q, tipo, key) = filter("carta", request)
            let answer = try catalog.answer(key: key) { menu in
                let found = menu.search(query: q, tipo: tipo)
                let sections = menu.sections.compactMap { section -> SeccionDTO? in
                    let platos = found.filter { $0.tipo == section.tipo }
                    return platos.isEmpty ? nil : SeccionDTO(tipo: section.tipo, platos: platos.map(PlatoDTO.init))
                }
                return try JSON.encode(sections)
            }
            return respond(answer)
        }
        router.add(.GET, "/categorias", .anyone) { _ in
            let answer = try catalog.answer(key: "categorias") { menu in
                try JSON.encode(menu.sections.map {
                    CategoriaDTO(tipo: $0.tipo, descripcion: $0.descripcion, numPlatos: $0.platos.count)
                })
            }
            return respond(answer)
        }
    }

    /// The `q` and `tipo` filters, and the cache key that identifies the answer.
    private static func filter(_ route: String, _ request: HTTPRequest) -> (String?, String?, String) {
        let q = request.queryValue("q")
        let tipo = request.queryValue("tipo")
        return (q, tipo, "\(route)\u{0}\(Menu.normalizedQuery(q))\u{0}\(tipo.map { "=" + $0 } ?? "")")
    }

    private static func respond(_ answer: MenuCatalog.Encoded) -> HTTPResponse {
        var response = HTTPResponse.json(answer.body)
        response.headers.add("ETag", answer.etag)
        response.headers.add("Cache-Control", "no-cache")
        return response
    }
}
