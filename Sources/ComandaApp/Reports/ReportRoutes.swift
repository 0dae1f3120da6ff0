import ComandaCore
import ComandaHTTP

/// `GET /informes/ventas` (for `gerente`).
struct ReportRoutes: Feature {
    let reports: ReportService

    func register(on router: inout Routes) {
        router.describe(ReportJSON.schemas)
        router.add(.GET, "/informes/ventas", .staff(.gerente), .op(
            "The sales report over the restaurant's days `desde`…`hasta` (both default to today, at most 366 days).",
            id: "informeVentas",
            tags: ["Reports"],
            params: [.query("desde", "YYYY-MM-DD.", .text), .query("hasta", "YYYY-MM-DD.", .text)],
            responses: ["200": .ok(.ref("InformeVentas")), "503": .readsBusy])) { r in
            // Days in the restaurant's zone; both default to today.
            let range = try DayRange(r.http, today: reports.today)
            return try r.offLoop(report: true) {
                var response = HTTPResponse.json(ReportJSON.ventas(try reports.ventas(range), desde: range.desdeText, hasta: range.hastaText))
                response.headers.add("Cache-Control", "no-store")
                return response
            }
        }
    }
}
