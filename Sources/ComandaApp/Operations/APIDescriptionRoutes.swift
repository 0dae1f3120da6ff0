import ComandaCore
import ComandaHTTP
import ComandaResources
import Foundation

/// `GET /openapi.json`: the OpenAPI 3.1 description of the API (`docs/openapi.json`).
struct APIDescriptionRoutes: Feature {
    /// The document served.
    let document: [UInt8]

    /// The document: `docs/openapi.json` found by `locator`, else the one built into the binary.
    static func document(_ locator: ResourceLocator) -> [UInt8] {
        if let path = locator.find("docs/openapi.json"), let data = FileManager.default.contents(atPath: path) {
            return Array(data)
        }
        return BuiltIn.openAPI
    }

    func register(on router: inout Routes) {
        let document = document
        var hash = FNV1a()
        hash.add(document)
        let etag = "\"" + hash.hex + "\""
        router.add(.GET, "/openapi.json", .anyone) { _ in
            HTTPResponse(status: .ok, headers: HTTPHeaders([
                ("Content-Type", "application/json; charset=utf-8"), ("ETag", etag), ("Cache-Control", "no-cache"),
            ]), body: document)
        }
    }
}
