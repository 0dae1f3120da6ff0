import ComandaTestSupport
import Foundation
import Testing

/// kill -9 of the real binary while print jobs wait, and while one is being
/// written: after the restart every job prints once, in order, and the one
/// cut off prints again headed REIMPRESIÓN (the cut one kept as printed,
/// with no time: nobody knows what came out).
@Suite struct PrintCrashTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    private func until(_ seconds: Double, _ what: String, _ condition: () throws -> Bool) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("waited \(seconds) s for \(what)")
    }

    @Test func killedWhileJobsWaitAndOneIsBeingWritten() throws {
        let dir = try makeTemporaryFolder("comanda-print-crash")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let db = dir + "/r.sqlite"
        try "jefa-de-sala-1\n".write(toFile: dir + "/pw", atomically: false, encoding: .utf8)
        _ = try runComanda(["create-staff", "--crear", "jefa", "--rol", "gerente", "--password-file", dir + "/pw", "--database", db], in: dir)
        let args = ["--database", db, "--public", dir + "/Public"]
        let env = ["COMANDA_SCRYPT_LOG_N": "10", "COMANDA_ZONA_HORARIA": "Europe/Madrid"]
        var server = try ServerProcess(arguments: args, directory: dir, environment: env)
        func client() throws -> (TestClient, String) {
            let c = try TestClient(port: server.port)
            let token = try #require(json(try c.postJSON("/sesiones", #"{"login": "jefa", "password": "jefa-de-sala-1"}"#))["token"] as? String)
            return (c, token)
        }
        let printer = try FakePrinter()
        defer { printer.stop() }
        var (c, boss) = try client()
        let plato = try #require((try c.request("GET", "/platos").json as? [[String: Any]])?.first?["id"] as? Int)
        let id = try #require(json(try c.postJSON("/impresoras", #"{"nombre": "Cocina", "host": "127.0.0.1", "puerto": \#(printer.port)}"#, token: boss))["id"] as? Int)
        #expect(try c.postJSON("/estaciones", #"{"nombre": "Cocina", "impresora_id": \#(id), "por_defecto": true}"#, token: boss).status == 201)
        func send(_ mesa: String, _ cantidad: Int) throws {
            let m = try #require(json(try c.postJSON("/mesas", #"{"nombre": "\#(mesa)", "plazas": 4}"#, token: boss))["id"] as? Int)
            let cuenta = try #require(json(try c.postJSON("/mesas/\(m)/sentar", #"{"comensales": 2}"#, token: boss))["id"] as? Int)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(plato), "cantidad": \#(cantidad)}"#, token: boss)
            #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: boss).status == 200)
        }
        // A printer without status: after the ticket's bytes the spooler waits 2 s for the paper sensor's answer.
        printer.set(.silent)
        try send("T1", 1)
        try until(15, "the first ticket's bytes") { printerHasTicket(printer) }
        // Cut off there (the job is being written), and two more queued behind it in the same breath.
        server.kill9()
        // Out of paper for a while: the reprint and the next ones wait in the database, across another kill.
        printer.set(.paperOut)
        server = try ServerProcess(arguments: args, directory: dir, environment: env)
        (c, boss) = try client()
        try send("T2", 2)
        try send("T3", 3)
        Thread.sleep(forTimeInterval: 1)
        server.kill9()
        printer.set(.ready)
        server = try ServerProcess(arguments: args, directory: dir, environment: env)
        (c, boss) = try client()
        try until(40, "every job printed") {
            let jobs = (try c.authed("GET", "/impresoras/\(id)/trabajos", boss).json as? [[String: Any]]) ?? []
            return jobs.count == 4 && jobs.allSatisfy { $0["estado"] as? String == "impreso" }
        }
        let jobs = try #require(try c.authed("GET", "/impresoras/\(id)/trabajos", boss).json as? [[String: Any]])
        // Newest first: T3, T2, the reprint of T1, and T1 itself (cut: printed, no time).
        let cut = try #require(jobs.last)
        #expect(cut["impreso"] is NSNull && jobs[2]["reimpresion_de"] as? Int == cut["id"] as? Int)
        let printed = printer.texts.filter { $0.contains("x ") }
        let reprints = printed.filter { $0.contains("REIMPRESI") && $0.contains("1 x ") }
        #expect(reprints.count == 1, "the cut job printed again once, headed REIMPRESIÓN: \(printed)")
        #expect(printed.filter { $0.contains("2 x ") }.count == 1 && printed.filter { $0.contains("3 x ") }.count == 1, "\(printed)")
        let order = printed.compactMap { t in ["1 x ", "2 x ", "3 x "].firstIndex { t.contains($0) } }
        #expect(order == [0, 0, 1, 2], "T1 (cut), T1 again, T2, T3: \(order)")
        _ = server.stop()
    }

    private func printerHasTicket(_ p: FakePrinter) -> Bool {
        // The connection is still open while the spooler waits: look at the bytes as they come.
        p.inFlight.contains { FakePrinter.find([0x1D, 0x56, 0x00], in: $0) != nil }
    }
}
