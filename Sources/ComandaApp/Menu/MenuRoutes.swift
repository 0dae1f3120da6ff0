import ComandaCore
import ComandaHTTP

/// `GET /platos`, `/platos/{id}`, `/carta` and `/categorias`.
struct MenuRoutes: Feature {
    let catalog: MenuService

    func register(on router: inout Routes) {
        router.describe(MenuJSON.schemas)
        router.add(.GET, "/platos", .anyone, .op(
            "The menu, by category (menu order) then name.",
            id: "listPlatos",
            tags: ["Menu"],
            params: [.query("q", "A literal substring of `nombre` or `descripcion`, ignoring case and accents.", .text), .query("tipo", "Only this category.", .text), .query("sin", "Leave out dishes containing any of these allergen codes (comma-separated).", .text), .query("trazas", "`excluir`: with `sin`, leave out dishes that may hold them as traces too.", .oneOf(["excluir", "incluir"])), .query("disponible", "`true`: only dishes that can be ordered now.", .oneOf(["true", "false"]))],
            responses: ["200": .ok(.list(.ref("Plato")), headers: .etag), "304": .notModified])) { r in
            let request = r.http
            let f = try Self.filter("platos", request)
            let answer = try catalog.answer(key: f.key) { menu in
                MenuJSON.platos(f.search(menu))
            }
            return Self.respond(answer)
        }
        router.add(.GET, "/platos/:id", .anyone, .op(
            "One dish.",
            id: "getPlato",
            tags: ["Menu"],
            params: [.path("id", "The dish's id.")],
            responses: ["200": .ok(.ref("Plato"), headers: .etag), "304": .notModified])) { r in
            guard let id = r.params.id() else {
                throw APIError.notFound("There is no dish with this id.")
            }
            let answer = try catalog.answer(key: "plato\u{0}\(id)") { menu in
                guard let plato = menu.plato(id: id) else { throw APIError.notFound("There is no dish with this id.") }
                return MenuJSON.plato(plato)
            }
            return Self.respond(answer)
        }
        router.add(.GET, "/carta", .anyone, .op(
            "The menu in sections, as the app's table shows it.",
            id: "carta",
            tags: ["Menu"],
            params: [.query("q", "A literal substring of `nombre` or `descripcion`, ignoring case and accents.", .text), .query("tipo", "Only this category.", .text), .query("sin", "Leave out dishes containing any of these allergen codes (comma-separated).", .text), .query("trazas", "`excluir`: with `sin`, leave out dishes that may hold them as traces too.", .oneOf(["excluir", "incluir"])), .query("disponible", "`true`: only dishes that can be ordered now.", .oneOf(["true", "false"]))],
            responses: ["200": .ok(.list(.ref("Seccion")), headers: .etag), "304": .notModified])) { r in
            let request = r.http
            let f = try Self.filter("carta", request)
            let answer = try catalog.answer(key: f.key) { menu in
                let found = f.search(menu)
                let sections = menu.sections.compactMap { section -> (tipo: String, platos: [Plato])? in
                    let platos = found.filter { $0.tipo == section.tipo }
                    return platos.isEmpty ? nil : (section.tipo, platos)
                }
                return MenuJSON.carta(sections)
            }
            return Self.respond(answer)
        }
        router.add(.GET, "/categorias", .anyone, .op(
            "The categories in menu order.",
            id: "categorias",
            tags: ["Menu"],
            responses: ["200": .ok(.list(.ref("Categoria")), headers: .etag), "304": .notModified])) { _ in
            let answer = try catalog.answer(key: "categorias") { menu in
                MenuJSON.categorias(menu.sections.map { ($0.tipo, $0.descripcion, $0.platos.count) })
            }
            return Self.respond(answer)
        }
    }

    /// The filters of `/platos` and `/carta` and the cache key naming the answer.
    struct Filter {
        let q: String?, tipo: String?, sin: Alergenos, excluirTrazas: Bool, soloDisponibles: Bool, key: String

        func search(_ menu: Menu) -> [Plato] {
            menu.search(query: q, tipo: tipo, sin: sin, excluirTrazas: excluirTrazas, soloDisponibles: soloDisponibles)
        }
    }

    /// `q`, `tipo`, `sin=gluten,lacteos` (lower-case codes; an empty one is no
    /// filter; an unknown one 422 `field: sin`), `trazas=excluir` and
    /// `disponible=true`; anything else in those two is 422 with the field.
    static func filter(_ route: String, _ request: HTTPRequest) throws -> Filter {
        func value(_ name: String) -> String? { request.queryValue(name) }
        let q = value("q")
        let tipo = value("tipo")
        var sin = Alergenos.none
        if let raw = value("sin"), !raw.isEmpty {
            guard case .success(let set) = Alergenos.parse(raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init)) else {
                throw APIError.validation("sin", "must be allergen codes separated by commas (see GET /alergenos)")
            }
            sin = set
        }
        let trazas = value("trazas")
        guard trazas == nil || trazas == "" || trazas == "excluir" || trazas == "incluir" else {
            throw APIError.validation("trazas", "must be excluir or incluir")
        }
        let disponible = value("disponible")
        guard disponible == nil || disponible == "" || disponible == "true" || disponible == "false" else {
            throw APIError.validation("disponible", "must be true or false")
        }
        let excluir = trazas == "excluir" && sin != .none
        let solo = disponible == "true"
        let key = "\(route)\u{0}\(Menu.normalizedQuery(q))\u{0}\(tipo.map { "=" + $0 } ?? "")\u{0}\(sin.bits)\(excluir ? "t" : "")\(solo ? "d" : "")"
        return Filter(q: q, tipo: tipo, sin: sin, excluirTrazas: excluir, soloDisponibles: solo, key: key)
    }

    static func respond(_ answer: MenuService.Encoded) -> HTTPResponse {
        var response = HTTPResponse.json(answer.body)
        response.headers.add("ETag", answer.etag)
        response.headers.add("Cache-Control", "no-cache")
        return response
    }
}
