import ComandaHTTP
import Foundation

/// `GET /ajustes`: what every page needs to know of the restaurant, for
/// anyone: its name and its time zone (pages show times in the
/// restaurant's zone, whatever the tablet's or the guest's phone's is), when
/// its business day closes (the manager's pages read days as those), and
/// the address guests' links start with (the host's links, the tables' cards).
struct SettingsRoutes: Feature {
    let nombreRestaurante: String
    let zonaHoraria: String
    /// Minutes after midnight.
    var cierreDia = 0
    /// The start of the links printed or sent to guests (`urlPublica`), nil: the address the page was opened at.
    var urlPublica: String? = nil

    func register(on router: inout Routes) {
        let body = JSONWriter.write(capacity: 128) { w in
            w.object { w in
                w.key("cierreDia"); w.string(String(format: "%02d:%02d", cierreDia / 60, cierreDia % 60))
                w.key("nombreRestaurante"); w.string(nombreRestaurante)
                w.key("urlPublica"); w.string(urlPublica)
                w.key("zonaHoraria"); w.string(zonaHoraria)
            }
        }
        router.add(.GET, "/ajustes", .anyone, .op(
            "The restaurant's name, time zone and business day's close, for every page (times are shown in the restaurant's zone).",
            id: "ajustes",
            tags: ["Operations"],
            responses: [
                "200": .ok(.obj(["nombreRestaurante": ["type": "string", "minLength": 1, "maxLength": 60], "zonaHoraria": ["type": "string", "description": "An IANA time zone name."],
                                  "cierreDia": ["type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$", "description": "When the business day closes (HH:MM)."],
                                  "urlPublica": .nullable(["type": "string", "description": "The start of the links for guests (`urlPublica`: the tables' QR codes, the waitlist's links); null: the address the page was opened at."])])),
            ])) { _ in
            var response = HTTPResponse.json(body)
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
    }
}
