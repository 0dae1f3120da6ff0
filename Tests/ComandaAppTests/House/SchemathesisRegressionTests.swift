import ComandaApp
import ComandaTestSupport
import Foundation
import Testing

/// Defects schemathesis (scripts/schemathesis.sh) found, each kept as a test.
@Suite struct SchemathesisRegressionTests {
    /// `QUERY` (the IETF's safe method with a body) was 501 on every path; a
    /// known method a path does not take is 405 with `Allow`.
    @Test func queryMethodIs405WithAllow() throws {
        let (app, _) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let health = try c.request("QUERY", "/health")
            #expect(health.status == 405)
            #expect(health.header("Allow") == "GET, HEAD, OPTIONS")
            let body = try c.request("QUERY", "/reservations", headers: [("Content-Type", "application/json")],
                                     body: Array(#"{"name": "0", "size": 1}"#.utf8))
            #expect(body.status == 405)
            #expect(body.errorCode == "method_not_allowed")
        }
    }
}
