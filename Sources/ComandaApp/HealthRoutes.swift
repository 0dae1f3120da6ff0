import ComandaHTTP

/// `GET /health`: 200 `ok`, touching nothing else (load balancers, Docker).
enum HealthRoutes {
    static func register(on router: inout Router<RouteHandler>) {
        router.add(.GET, "/health") { _, _ in HTTPResponse.text("ok") }
    }
}
