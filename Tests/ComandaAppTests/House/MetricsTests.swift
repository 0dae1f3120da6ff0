import ComandaApp
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

@Suite struct MetricsTests {
    @Test func countsRequestsByRoutePatternConnectionsAndParseErrors() throws {
        let (app, _) = try makeUserApp()
        let server = HTTPServer(configuration: makeTestConfiguration(), responder: app, logger: makeQuietLogger(), observer: app.metrics)
        app.metrics.observeConnections { [weak server] in server?.connectionCount ?? 0 }
        let port = try server.start()
        defer { server.shutdownAndWait() }
        let c = try TestClient(port: port)
        for id in [1, 2, 2] { _ = try c.request("GET", "/platos/\(id)") }
        _ = try c.request("GET", "/health")
        _ = try c.request("GET", "/no/such/page")
        let bad = try TestClient(port: port)
        try bad.send("GET / HTTP/2.0\r\nHost: t\r\n\r\n")
        #expect(try bad.readResponse().status == 505)
        let metrics = try c.request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = metrics.text
        #expect(text.contains(#"comanda_http_requests_total{route="/platos/:id",method="GET",status="200"} 3"#))
        #expect(text.contains(#"comanda_http_requests_total{route="/health",method="GET",status="200"} 1"#))
        #expect(text.contains(#"comanda_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        #expect(!text.contains("/platos/2"))
        #expect(text.contains(#"comanda_http_request_duration_seconds_count{route="/platos/:id"} 3"#))
        #expect(text.contains(#"comanda_http_parse_errors_total{kind="unsupportedVersion"} 1"#))
        // This client, and the bad one while its lingering close drains.
        let open = text.split(separator: "\n").first { $0.hasPrefix("comanda_http_open_connections ") }
            .flatMap { Double($0.split(separator: " ")[1]) }
        #expect(open == 1 || open == 2)
        #expect(text.range(of: #"comanda_database_size_bytes [1-9][0-9]*\.0"#, options: .regularExpression) != nil)
    }
}
