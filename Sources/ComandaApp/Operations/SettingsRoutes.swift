import ComandaHTTP

/// `GET /ajustes`: what every page needs to know of the restaurant, for
/// anyone: its name and its time zone (pages show times in the
/// restaurant's zone, whatever the tablet's or the guest's phone's is).
struct SettingsRoutes: Feature {
    let nombreRestaurante: String
    let zonaHoraria: String

    func register(on router: inout Routes) {
        let body = JSONWriter.write(capacity: 128) { w in
            w.object { w in
                w.key("nombreRestaurante"); w.string(nombreRestaurante)
                w.key("zonaHoraria"); w.string(zonaHoraria)
            }
        }
        router.add(.GET, "/ajustes", .anyone, .op(
            "The restaurant's name and time zone, for every page (times are shown in the restaurant's zone).",
            id: "ajustes",
            tags: ["Operations"],
            responses: [
                "200": .ok(.obj(["nombreRestaurante": ["type": "string", "minLength": 1, "maxLength": 60], "zonaHoraria": ["type": "string", "description": "An IANA time zone name."]])),
            ])) { _ in
            var response = HTTPResponse.json(body)
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
    }
}
