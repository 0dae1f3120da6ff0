import ComandaHTTP

/// `GET /health`: 200 `ok`, touching nothing else (load balancers, Docker).
struct HealthRoutes: Feature {
    func register(on router: inout Routes) {
        router.add(.GET, "/health", .anyone, .raw(["summary": "Liveness: `ok`, no database work.", "operationId": "health", "tags": ["Operations"], "security": [], "x-roles": [], "responses": ["200": .plain("`ok`")]])) { _ in HTTPResponse.text("ok") }
    }
}
