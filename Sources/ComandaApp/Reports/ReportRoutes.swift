import ComandaCore
import ComandaHTTP

/// `GET /informes/ventas` (for `gerente`).
struct ReportRoutes: Feature {
    let reports: ReportService

    func register(on router: inout Routes) {
        router.add(.GET, "/informes/ventas", .staff(.gerente)) { r in
            // Days in the restaurant's zone; both default to today.
            let range = try DayRange(r.http, today: reports.today)
            return try r.offLoop {
                var response = HTTPResponse.json(ReportJSON.ventas(try reports.ventas(range), desde: range.desdeText, hasta: range.hastaText))
                response.headers.add("Cache-Control", "no-store")
                return response
            }
        }
    }
}
