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
        router.add(.GET, "/alergenos", .anyone, .op(
            "The 14 allergens of Regulation (EU) 1169/2011, Annex II, in its order.",
            id: "alergenos",
            tags: ["Menu"],
            responses: [
                "200": .ok(["type": "array", "items": .ref("Alergeno"), "minItems": 14, "maxItems": 14]),
            ])) { _ in
            var response = HTTPResponse.json(MenuJSON.alergenos())
            response.headers.add("Cache-Control", "public, max-age=86400")
            return response
        }
        // The writes are answered after their commit, holding no thread meanwhile.
        router.add(.POST, "/platos", .staff(.gerente), .op(
            "A new dish (a new category joins the menu order last).",
            id: "createPlato",
            tags: ["Managing the menu"],
            body: NuevoPlato.self,
            responses: [
                "201": .ok(.ref("Plato"), "Created.", headers: ["Location": ["required": true, "schema": .text]]),
                "409": .error("`nombre_en_uso`: another dish on the menu has this name (ignoring case and accents)."),
            ])) { r in
            return r.after(menu.create(try NuevoPlato(r.http).cambios)) { plato in
                var response = HTTPResponse.json(MenuJSON.plato(plato), status: .created)
                response.headers.add("Location", "/platos/\(plato.id)")
                return response
            }
        }
        router.add(.PATCH, "/platos/:id", .staff(.gerente), .op(
            "Change the fields sent (an empty object changes nothing).",
            id: "patchPlato",
            tags: ["Managing the menu"],
            params: [.path("id", "The dish's id.")],
            request: .body(NuevoPlato.cambiosSchema),
            responses: [
                "200": .ok(.ref("Plato")),
                "409": .error("`nombre_en_uso`: another dish on the menu has this name."),
            ])) { r in
            r.after(menu.update(id: try Self.platoID(r.params), try NuevoPlato.cambios(try JSONBody(r.http)))) { .json(MenuJSON.plato($0)) }
        }
        router.add(.DELETE, "/platos/:id", .staff(.gerente), .op(
            "Retire a dish: off the menu, search and favourites; kept in placed orders.",
            id: "retirePlato",
            tags: ["Managing the menu"],
            params: [.path("id", "The dish's id.")],
            responses: ["204": .noContent])) { r in
            r.after(menu.retire(id: try Self.platoID(r.params), now: now())) { HTTPResponse(status: .noContent) }
        }
        router.add(.PUT, "/platos/:id/disponible", .staff(.cocina), .op(
            "Sold out for now (false), or back (true).",
            id: "setDisponible",
            tags: ["Managing the menu"],
            params: [.path("id", "The dish's id.")],
            body: Disponible.self,
            responses: ["200": .ok(.ref("Plato"))])) { r in
            let disponible = try Disponible(r.http).disponible
            return r.after(menu.setDisponible(id: try Self.platoID(r.params), disponible)) { .json(MenuJSON.plato($0)) }
        }
        router.add(.PUT, "/platos/:id/foto", .staff(.gerente), .op(
            "Upload the photo: JPEG, PNG or WebP up to 5 MiB, 1…10000 px each way.",
            id: "putFoto",
            tags: ["Managing the menu"],
            params: [.path("id", "The dish's id.")],
            request: ["required": true, "content": MenuJSON.imageContent],
            responses: [
                "200": .ok(.ref("Plato")),
                "415": .error("Not image/jpeg, image/png or image/webp."),
                "422": .error("`imagen_no_valida`: the bytes are not that format, or the size is out of range."),
            ])) { r in
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
        router.add(.PUT, "/platos/:id/opciones", .staff(.gerente), .op(
            "Replace the dish's whole list of options (`min` ≤ `max` ≤ the number of values; new ids from the server).",
            id: "setOpciones",
            tags: ["Managing the menu"],
            params: [.path("id", "The dish's id.")],
            body: Opciones.self,
            responses: ["200": .ok(.ref("Plato"))])) { r in
            let id = try Self.platoID(r.params)
            let grupos = try Opciones(r.http).grupos
            return r.after(menu.setOpciones(id: id, grupos)) { .json(MenuJSON.plato($0)) }
        }
        router.add(.DELETE, "/platos/:id/foto", .staff(.gerente), .op(
            "Remove the photo.",
            id: "deleteFoto",
            tags: ["Managing the menu"],
            params: [.path("id", "The dish's id.")],
            responses: ["204": .noContent])) { r in
            r.after(menu.deleteFoto(id: try Self.platoID(r.params))) { HTTPResponse(status: .noContent) }
        }
        router.add(.GET, "/platos/:id/foto", .anyone, .op(
            "The dish's photo (strong ETag; `immutable` with the current `v`).",
            id: "getFoto",
            tags: ["Managing the menu"],
            params: [.path("id", "The dish's id."), .query("v", "The photo's version tag.", .text)],
            responses: [
                "200": ["description": "The image.", "headers": .etag, "content": MenuJSON.imageContent],
                "304": .notModified,
            ])) { r in
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
}
