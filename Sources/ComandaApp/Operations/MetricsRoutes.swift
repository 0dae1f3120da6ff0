import ComandaHTTP

/// `GET /metrics`: the Prometheus text exposition.
struct MetricsRoutes: Feature {
    let metrics: AppMetrics

    func register(on router: inout Routes) {
        let metrics = metrics
        router.add(.GET, "/metrics", .anyone) { _ in
            HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
                         body: metrics.exposition())
        }
    }
}
