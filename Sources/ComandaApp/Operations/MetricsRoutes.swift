import ComandaHTTP

/// `GET /metrics`: the Prometheus text exposition.
struct MetricsRoutes: Feature {
    let metrics: AppMetrics

    func register(on router: inout Routes) {
        let metrics = metrics
        router.add(.GET, "/metrics", .anyone, .raw(["summary": "Prometheus text format.", "operationId": "metrics", "tags": ["Operations"], "security": [], "x-roles": [], "responses": ["200": ["description": "The metrics.", "content": ["text/plain; version=0.0.4; charset=utf-8": ["schema": .text]]], "503": .readsBusy]])) { r in
            // Off the event loops: the exposition reads the database (its size, the billing records' states).
            try r.offLoop {
                HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
                             body: metrics.exposition())
            }
        }
    }
}
