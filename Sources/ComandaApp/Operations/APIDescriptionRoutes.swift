import ComandaCore
import ComandaHTTP
import ComandaRuntime

/// `GET /openapi.json`: the OpenAPI 3.1 description of the API, as the
/// routes say it (`Routes.document`; `docs/openapi.json` is a copy).
struct APIDescriptionRoutes: Feature {
    /// The document, set once every room has registered.
    final class Document: Sendable {
        private let bytes = Locked<(body: [UInt8], etag: String)>(([], "\"\""))

        /// Keeps the document's text.
        func set(_ text: String) {
            let body = Array(text.utf8)
            var hash = FNV1a()
            hash.add(body)
            bytes.withLock { $0 = (body, "\"" + hash.hex + "\"") }
        }

        var current: (body: [UInt8], etag: String) { bytes.withLock { $0 } }
    }

    let document: Document

    func register(on router: inout Routes) {
        let document = document
        router.add(.GET, "/openapi.json", .anyone, .op(
            "This document.",
            id: "openapi",
            tags: ["Operations"],
            responses: ["200": .ok(["type": "object"], headers: .etag), "304": .notModified])) { _ in
            let (body, etag) = document.current
            return HTTPResponse(status: .ok, headers: HTTPHeaders([
                ("Content-Type", "application/json; charset=utf-8"), ("ETag", etag), ("Cache-Control", "no-cache"),
            ]), body: body)
        }
    }
}
