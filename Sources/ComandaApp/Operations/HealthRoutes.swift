import ComandaHTTP

/// `GET /health`: 200 `ok`, touching nothing else (load balancers, Docker).
struct HealthRoutes: Feature {
    func register(on router: inout Routes) {
        router.add(.GET, "/health", .anyone) { _ in HTTPResponse.text("ok") }
    }
}
