@testable import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation
import Testing

/// Every error type a route may throw maps itself to its answer
/// (`APIErrorConvertible`); the application maps that protocol once, and
/// anything else is a 500. A new error type declared anywhere in the
/// application's modules fails this test until it conforms, or is listed
/// below with the reason it never reaches a route.
@Suite struct ErrorMappingTests {
    /// Conforming: the compiler holds each of these to the protocol.
    static let mapped: [String: any APIErrorConvertible.Type] = [
        "APIError": APIError.self, "UserError": UserError.self, "WaitlistError": WaitlistError.self,
        "OrderError": OrderError.self, "PlatoError": PlatoError.self, "Problem": PlatoRules.Problem.self,
        "AlergenoProblem": AlergenoProblem.self, "MesaError": MesaError.self,
        "CuentaError": CuentaError.self, "IdempotencyError": IdempotencyError.self, "ImpresionError": ImpresionError.self,
    ]

    /// Never thrown by a route, and why.
    static let elsewhere: [String: String] = [
        "CheckRefused": "PendingWrite's wrapper of a check's refusal, unwrapped before anyone hears",
        "StoreError": "the database failed: a 500 on purpose, its details only in the log",
        "MenuError": "reading a menu file (start-up, import-platos)",
        "Failure": "the command line's import-platos and create-staff",
        "ConfigurationError": "start-up: a bad setting stops the server before it serves",
    ]

    private static func declaredErrorTypes() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var names: [String] = []
        let pattern = try NSRegularExpression(pattern: #"(?:enum|struct|class)\s+(\w+)\s*:[^{]*\bError\b[^{]*\{"#)
        for module in ["ComandaCore", "ComandaStore", "ComandaApp"] {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let range = Range(match.range(at: 1), in: text) { names.append(String(text[range])) }
                }
            }
        }
        return names
    }

    @Test func everyErrorTypeMapsItselfOrIsKnownNeverToReachARoute() throws {
        let declared = try Self.declaredErrorTypes()
        #expect(declared.count >= 10, "the source scan found \(declared)")
        for name in declared {
            #expect(Self.mapped[name] != nil || Self.elsewhere[name] != nil,
                    "\(name) is an Error: make it APIErrorConvertible in its room, or list where it is thrown instead")
        }
        for name in Self.mapped.keys { #expect(declared.contains(name), "\(name) is no longer declared") }
    }

    @Test func theApplicationMapsTheProtocolOnceAndAnythingElseIsA500() throws {
        let (app, _) = try makeUserApp()
        let request = HTTPRequest(method: .GET, target: "/x")
        #expect(app.errorResponse(OrderError.notFound, request: request).status == .notFound)
        #expect(app.errorResponse(PlatoRules.Problem("precio", "must be positive"), request: request).status == .unprocessableContent)
        #expect(app.errorResponse(UserError.tooManyAttempts(retryAfterSeconds: 9), request: request).headers["Retry-After"] == "9")
        struct Unmapped: Error {}
        let unknown = app.errorResponse(Unmapped(), request: request)
        #expect(unknown.status == .internalServerError)
        #expect(!String(decoding: unknown.body, as: UTF8.self).contains("Unmapped"))
    }
}
