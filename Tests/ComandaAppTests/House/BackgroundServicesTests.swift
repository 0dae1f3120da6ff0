@testable import ComandaApp
import ComandaRuntime
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// The background services: one list in the application, started after the
/// routes and stopped, the last started first, when the server stops.
@Suite struct BackgroundServicesTests {
    /// The real binary, with a staff member's stream open (the sweep runs)
    /// and a public one, the checkpointer ticking and the helper threads
    /// made: SIGTERM ends it within 2 s, with exit 0, and nothing written
    /// before is lost.
    @Test func theBinaryStopsWithinTwoSecondsOfSIGTERMWithStreamsOpen() throws {
        let dir = try makeTemporaryFolder("comanda-services")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let db = dir + "/services.sqlite"
        try "cocinera-de-guardia\n".write(toFile: dir + "/pw", atomically: false, encoding: .utf8)
        #expect(try runComanda(["create-staff", "--crear", "cocina1", "--rol", "cocina", "--password-file", dir + "/pw", "--database", db], in: dir).0 == 0)
        let server = try ServerProcess(arguments: ["--database", db, "--public", dir + "/Public"], directory: dir,
                                       environment: ["COMANDA_SCRYPT_LOG_N": "10"])
        let c = try TestClient(port: server.port)
        let login = try c.postJSON("/sesiones", #"{"login": "cocina1", "password": "cocinera-de-guardia"}"#)
        let token = try #require((login.json as? [String: Any])?["token"] as? String)
        let kitchen = try TestClient(port: server.port, timeout: 5)
        #expect(try kitchen.openStream("/cocina/eventos", headers: [("Authorization", "Bearer \(token)")]).status == 200)
        #expect(try kitchen.readDataEvent().event == "snapshot")
        let waitlist = try TestClient(port: server.port, timeout: 5)
        #expect(try waitlist.openStream("/reservations/eventos").status == 200)
        #expect(try waitlist.readDataEvent().event == "reservations")
        // Something written, for the checkpointer and the writer to have had work.
        #expect(try c.request("GET", "/reservations").status == 200)
        let started = Date()
        let status = server.stop()
        let took = Date().timeIntervalSince(started)
        #expect(status == 0)
        #expect(took < 2, "stopped in \(took) s")
        #expect(server.log().contains("stopped"))
    }

    /// The application's list: the database's checkpointer first, then the
    /// streams' sweep and the helper threads; `stop()` stops each.
    @Test func theApplicationStartsAndStopsEveryService() throws {
        let dir = try makeTemporaryFolder("comanda-services-app")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (app, database) = try makeUserApp(database: try AppDatabase.open(path: dir + "/app.sqlite"))
        #expect(app.services.map(\.serviceName) == ["checkpointer", "streams' sweep", "password threads", "long reads' threads", "reports' threads", "print spooler", "backups"])
        let checkpointer = try #require(database.backgroundServices.first as? Checkpointer)
        #expect(checkpointer === app.services.first)
        app.start()
        try waitUntil { checkpointer.ticks.withLock { $0 } >= 2 }
        app.stop()
        let ticks = checkpointer.ticks.withLock { $0 }
        Thread.sleep(forTimeInterval: 0.35)
        #expect(checkpointer.ticks.withLock { $0 } == ticks)
        #expect(!app.streams.sweeping)
    }

    /// The checkpointer ticks only between `start()` and `stop()`; both may be called twice.
    @Test func theCheckpointerRunsFromStartToStop() throws {
        let dir = try makeTemporaryFolder("comanda-services-checkpoint")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let database = try AppDatabase.open(path: dir + "/c.sqlite")
        let checkpointer = try #require(database.backgroundServices.first as? Checkpointer)
        Thread.sleep(forTimeInterval: 0.25)
        #expect(checkpointer.ticks.withLock { $0 } == 0)
        checkpointer.start()
        checkpointer.start()
        try waitUntil { checkpointer.ticks.withLock { $0 } >= 2 }
        checkpointer.stop()
        checkpointer.stop()
        let ticks = checkpointer.ticks.withLock { $0 }
        Thread.sleep(forTimeInterval: 0.35)
        #expect(checkpointer.ticks.withLock { $0 } == ticks)
    }

    /// The streams' sweep runs while a stream of a session is open and, once
    /// stopped, never starts again (a stream opened after is still served).
    @Test func theSweepStopsForGood() throws {
        let (app, _) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            _ = try c.postJSON("/usuarios", #"{"login": "ana", "password": "secreto-largo", "nombre": "Ana"}"#)
            let token = try #require((try c.postJSON("/sesiones", #"{"login": "ana", "password": "secreto-largo"}"#).json
                                        as? [String: Any])?["token"] as? String)
            let pedido = try #require((try c.postJSON("/pedidos", "{}", token: token).json as? [String: Any])?["id"] as? Int)
            let stream = try TestClient(port: port, timeout: 5)
            #expect(try stream.openStream("/pedidos/\(pedido)/eventos", headers: [("Authorization", "Bearer \(token)")]).status == 200)
            try waitUntil { app.streams.sweeping }
            app.streams.stop()
            #expect(!app.streams.sweeping)
            let again = try TestClient(port: port, timeout: 5)
            #expect(try again.openStream("/pedidos/\(pedido)/eventos", headers: [("Authorization", "Bearer \(token)")]).status == 200)
            #expect(try again.readDataEvent().event == "pedido")
            #expect(!app.streams.sweeping)
        }
    }

    /// A stopped pool's threads end once their work is done.
    @Test func aStoppedPoolRunsWhatItHadThenEnds() throws {
        let pool = BlockingPool(name: "prueba", maxThreads: 2)
        let ran = Locked(0)
        for _ in 0..<4 { pool.submit { Thread.sleep(forTimeInterval: 0.05); ran.withLock { $0 += 1 } } }
        #expect(pool.threadCount == 2)
        pool.stop()
        try waitUntil { ran.withLock { $0 } == 4 }
        // And its threads end (a pool that is not stopped keeps them, idle).
        try waitUntil { pool.threadCount == 0 }
        #expect(pool.serviceName == "prueba")
    }

    struct NotInTime: Error {}

    private func waitUntil(_ seconds: Double = 5, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { throw NotInTime() }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

/// The after-commit channel hands each committed transaction's changes to
/// every handler in commit order; a change that names no thing (the floor,
/// the waitlist) once per transaction, however many writes made it.
@Suite struct ChangesTests {
    @Test func aTransactionsChangesReachEveryHandlerInOrderTheStateOnesOnce() throws {
        let database = try AppDatabase.inMemory()
        let heard = Locked<[String]>([])
        var subscriptions = Changes.Subscriptions()
        subscriptions.on { change in heard.withLock { $0.append("a \(change)") } }
        subscriptions.on { change in heard.withLock { $0.append("b \(change)") } }
        let changes = Changes(subscriptions, database: database)
        changes.committed([[.espera], [.enlace(mesaID: 3), .mesas], [.espera, .mesas], [.enlace(mesaID: 4)]])
        #expect(heard.withLock { $0 } == ["a espera", "b espera", "a enlace(mesaID: 3)", "b enlace(mesaID: 3)", "a mesas", "b mesas",
                                          "a enlace(mesaID: 4)", "b enlace(mesaID: 4)"])
        // The next transaction hears them again; and the store's writer is what tells it.
        heard.withLock { $0 = [] }
        _ = try database.batchedWrite({ _ in 1 }, changes: { _ in [.espera] })
        #expect(heard.withLock { $0 } == ["a espera", "b espera"])
    }
}
