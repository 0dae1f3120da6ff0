import ComandaCore
import ComandaHTTP

/// `GET /informes/ventas` (for `gerente`).
struct ReportRoutes: Feature {
    let reports: ReportService

    func register(on router: inout Routes) {
        router.add(.GET, "/informes/ventas", .staff(.gerente)) { r in
            // Days in the restaurant's zone; both default to today.
            let today = reports.today
            let desdeText = r.http.queryValue("desde") ?? today
            let hastaText = r.http.queryValue("hasta") ?? today
            guard let desde = LocalTime.parseDay(desdeText) else { throw APIError.validation("desde", "must be a date YYYY-MM-DD") }
            guard let hasta = LocalTime.parseDay(hastaText) else { throw APIError.validation("hasta", "must be a date YYYY-MM-DD") }
            var response = HTTPResponse.json(ReportJSON.ventas(try reports.ventas(desde: desde, hasta: hasta),
                                                               desde: desdeText, hasta: hastaText))
            response.headers.add("Cache-Control", "no-store")
            return response
        }
    }
}
