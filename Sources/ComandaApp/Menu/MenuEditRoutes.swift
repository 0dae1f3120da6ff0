import ComandaCore
import ComandaHTTP
import ComandaStore

/// The manager's menu: `POST /platos`, `PATCH` and `DELETE /platos/{id}`,
/// sold out (`PUT /platos/{id}/disponible`, kitchen too), the photos, and
/// `GET /alergenos`.
struct MenuEditRoutes: Feature {
    let menu: MenuService
    let now: @Sendable () -> Int64

    func register(on router: inout Routes) {
        let menu = menu, now = now
        router.add(.GET, "/alergenos", .anyone) { _ in
            var response = HTTPResponse.json(MenuJSON.alergenos())
            response.headers.add("Cache-Control", "public, max-age=86400")
            return response
        }
        // The writes are answered after their commit, holding no thread meanwhile.
        router.add(.POST, "/platos", .staff(.gerente)) { r in
            let body = try JSONBody(r.http)
            for field in ["nombre", "descripcion", "precio", "tipo"] where !body.has(field) {
                throw APIError.validation(field, "is required")
            }
            return r.after(menu.create(try Self.cambios(body))) { plato in
                var response = HTTPResponse.json(MenuJSON.plato(plato), status: .created)
                response.headers.add("Location", "/platos/\(plato.id)")
                return response
            }
        }
        router.add(.PATCH, "/platos/:id", .staff(.gerente)) { r in
            r.after(menu.update(id: try Self.platoID(r.params), try Self.cambios(try JSONBody(r.http)))) { .json(MenuJSON.plato($0)) }
        }
        router.add(.DELETE, "/platos/:id", .staff(.gerente)) { r in
            r.after(menu.retire(id: try Self.platoID(r.params), now: now())) { HTTPResponse(status: .noContent) }
        }
        router.add(.PUT, "/platos/:id/disponible", .staff(.cocina)) { r in
            let disponible = try JSONBody(r.http).bool("disponible")
            return r.after(menu.setDisponible(id: try Self.platoID(r.params), disponible)) { .json(MenuJSON.plato($0)) }
        }
        router.add(.PUT, "/platos/:id/foto", .staff(.gerente)) { r in
            let id = try Self.platoID(r.params)
            let declared = r.http.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingHTTPWhitespace().lowercased() }
            guard let declared, let format = ImageHeader.Format(rawValue: declared) else {
                throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send the photo as image/jpeg, image/png or image/webp.")
            }
            guard let info = ImageHeader.read(r.http.body), info.format == format else {
                throw APIError(.unprocessableContent, "imagen_no_valida", "The bytes are not a \(format.rawValue) image this server can read.")
            }
            guard (1...10_000).contains(info.width), (1...10_000).contains(info.height) else {
                throw APIError(.unprocessableContent, "imagen_no_valida", "The image must be 1 to 10000 pixels wide and high (it is \(info.width)×\(info.height)).")
            }
            var hash = FNV1a()
            hash.add(r.http.body)
            let tag = hash.hex + String(r.http.body.count, radix: 36)
            return r.after(menu.setFoto(id: id, format: format, bytes: r.http.body, info: info, tag: tag)) { .json(MenuJSON.plato($0)) }
        }
        router.add(.PUT, "/platos/:id/opciones", .staff(.gerente)) { r in
            let id = try Self.platoID(r.params)
            let grupos = try Self.opciones(try JSONBody(r.http))
            return r.after(menu.setOpciones(id: id, grupos)) { .json(MenuJSON.plato($0)) }
        }
        router.add(.DELETE, "/platos/:id/foto", .staff(.gerente)) { r in
            r.after(menu.deleteFoto(id: try Self.platoID(r.params))) { HTTPResponse(status: .noContent) }
        }
        router.add(.GET, "/platos/:id/foto", .anyone) { r in
            guard let foto = try menu.foto(id: try Self.platoID(r.params)) else { throw APIError.notFound("This dish has no photo.") }
            // The versioned URL (the current `v`) never changes: cache it for a year.
            let current = r.http.queryValue("v") == foto.etiqueta
            return HTTPResponse(status: .ok, headers: HTTPHeaders([
                ("Content-Type", foto.tipo), ("ETag", "\"\(foto.etiqueta)\""),
                ("Cache-Control", current ? "public, max-age=31536000, immutable" : "no-cache"),
            ]), body: foto.datos)
        }
    }

    static func platoID(_ params: PathParameters) throws -> Int64 {
        guard let id = params.id() else { throw PlatoError.notFound }
        return id
    }

    /// `PUT /platos/{id}/opciones`'s `{"opciones": [{"nombre", "min", "max",
    /// "valores": [{"nombre", "precio"}]}]}`, read and checked (422 `opciones`).
    static func opciones(_ body: JSONBody) throws -> [NuevoGrupo] {
        func bad(_ problem: String) -> APIError { APIError.validation("opciones", problem) }
        guard case .array(let items)? = body.object["opciones"] else {
            throw bad(body.has("opciones") ? "must be an array of groups" : "is required")
        }
        var raw: [(nombre: String, min: Int, max: Int, valores: [(nombre: String, precio: Double)])] = []
        for (i, item) in items.enumerated() {
            guard case .object(let g) = item, case .string(let nombre)? = g["nombre"], case .int(let min)? = g["min"],
                  case .int(let max)? = g["max"], case .array(let values)? = g["valores"] else {
                throw bad("group \(i + 1) must be an object with a text nombre, integers min and max, and an array valores")
            }
            var valores: [(nombre: String, precio: Double)] = []
            for (j, value) in values.enumerated() {
                guard case .object(let v) = value, case .string(let vn)? = v["nombre"] else {
                    throw bad("group \(i + 1), value \(j + 1) must be an object with a text nombre and a number precio")
                }
                switch v["precio"] {
                case .int(let n)?: valores.append((vn, Double(n)))
                case .double(let d)?: valores.append((vn, d))
                default: throw bad("group \(i + 1), value \(j + 1) must be an object with a text nombre and a number precio")
                }
            }
            raw.append((nombre, min, max, valores))
        }
        do {
            return try OpcionesRules.grupos(raw)
        } catch {
            throw APIError.validation(error.field, error.problem)
        }
    }

    /// The fields a `POST` or `PATCH` carries, each checked by its rule (422 with its field).
    static func cambios(_ body: JSONBody) throws -> CambiosPlato {
        var c = CambiosPlato()
        do {
            if body.has("nombre") { c.nombre = try PlatoRules.nombre(try body.string("nombre")) }
            if body.has("descripcion") { c.descripcion = try PlatoRules.descripcion(try body.string("descripcion")) }
            if body.has("precio") { c.precioCentimos = try PlatoRules.precio(try body.number("precio")) }
            if body.has("tipo") { c.tipo = try PlatoRules.tipo(try body.string("tipo")) }
            if body.has("alergenos") { c.alergenos = try PlatoRules.alergenos(try body.strings("alergenos"), "alergenos") }
            if body.has("trazas") { c.trazas = try PlatoRules.alergenos(try body.strings("trazas"), "trazas") }
            if body.has("ingredientes") {
                c.ingredientes = try PlatoRules.ingredientes(try body.objects("ingredientes", required: "nombre", optional: "cantidad")
                    .map { (nombre: $0.0, cantidad: $0.1) })
            }
            if body.has("disponible") { c.disponible = try body.bool("disponible") }
            if body.has("iva") { c.iva = try OpcionesRules.iva(try body.int("iva")) }
        } catch let problem as PlatoRules.Problem {
            throw APIError.validation(problem.field, problem.problem)
        }
        return c
    }
}
