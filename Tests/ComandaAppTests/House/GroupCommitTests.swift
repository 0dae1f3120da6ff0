import ComandaTestSupport
import Foundation
import Synchronization
import Testing

/// Group commit over real sockets, against the built server with its
/// default `synchronous = FULL`: 64 clients writing at once, some breaking
/// a rule, then a `kill -9` straight after a burst of acknowledged writes.
@Suite(.serialized) struct GroupCommitTests {
    private struct Server {
        let dir: String, args: [String], env: [String: String]
        let process: ServerProcess
        let queuePath: String
    }

    private func start(_ dir: String? = nil) throws -> Server {
        let dir = try dir ?? {
            let dir = try makeTemporaryFolder("comanda-group")
            try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
            try #"[{"nombre": "Tortilla", "descripcion": "De patata", "precio": 8, "tipo": "Entrantes"}]"#
                .write(toFile: dir + "/platos.json", atomically: false, encoding: .utf8)
            return dir
        }()
        let args = ["--database", dir + "/group.sqlite", "--platos", dir + "/platos.json", "--public", dir + "/Public"]
        let env = ["COMANDA_SCRYPT_LOG_N": "10"]
        let process = try ServerProcess(arguments: args, directory: dir, environment: env)
        let queuePath = try #require(process.log().firstMatch(of: /\/queue\/[A-Za-z0-9_-]+/)).output.description
        return Server(dir: dir, args: args, env: env, process: process, queuePath: queuePath)
    }

    /// Runs `body(i)` on `count` threads at once and waits for all of them.
    private func together(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for i in 0..<count {
            done.enter()
            Thread {
                start.wait()
                body(i)
                done.leave()
            }.start()
        }
        for _ in 0..<count { start.signal() }
        done.wait()
    }

    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    private func metric(_ text: String, _ name: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(Double(line.split(separator: " ").last ?? "") ?? -1)
        }
        return -1
    }

    @Test func sixtyFourClientsSomeBreakingRulesEachAnsweredAlone() throws {
        let server = try start()
        defer { _ = server.process.stop(); try? FileManager.default.removeItem(atPath: server.dir) }
        let port = server.process.port
        let setup = try TestClient(port: port)
        let logins = try (0..<64).map { i -> (token: String, pedido: Int) in
            let token = try setup.registerAndLogin("grupo\(i)")
            let pedido = try #require(json(try setup.send("POST", "/pedidos", token))["id"] as? Int)
            return (token, pedido)
        }
        struct Tally { var added = [Int](repeating: 0, count: 64), wrong: [String] = [], over = 0, unknown = 0, parties: [String] = [] }
        let tally = Mutex(Tally())
        let queuePath = server.queuePath
        together(64) { i in
            do {
                let c = try TestClient(port: port)
                let (token, pedido) = logins[i]
                for round in 0..<10 {
                    switch (i + round) % 4 {
                    case 0, 1:
                        let r = try c.send("POST", "/pedidos/\(pedido)/lineas", token, json: #"{"plato_id": 1, "cantidad": 30}"#)
                        let body = json(r)
                        tally.withLock { t in
                            if r.status == 200 || r.status == 201 {
                                t.added[i] += 30
                                if body["cantidad"] as? Int != t.added[i] || body["plato_id"] as? Int != 1 { t.wrong.append("\(i): \(r.text)") }
                            } else if r.status == 422, (body["error"] as? [String: Any])?["field"] as? String == "cantidad" {
                                t.over += 1
                            } else {
                                t.wrong.append("\(i): \(r.status) \(r.text)")
                            }
                        }
                    case 2:
                        let r = try c.send("POST", "/pedidos/\(pedido)/lineas", token, json: #"{"plato_id": 9999}"#)
                        let field = (json(r)["error"] as? [String: Any])?["field"] as? String
                        tally.withLock { t in
                            if r.status == 422 && field == "plato_id" { t.unknown += 1 } else { t.wrong.append("\(i): \(r.status) \(r.text)") }
                        }
                    default:
                        // A second open order is the one already open.
                        let again = try c.send("POST", "/pedidos", token)
                        let name = "Grupo\(i)x\(round)"
                        let party = try c.request("POST", queuePath + "/" + name + "/\(1 + i % 6)")
                        tally.withLock { t in
                            if again.status != 200 || json(again)["id"] as? Int != pedido { t.wrong.append("\(i): \(again.status) \(again.text)") }
                            if party.status == 201 && party.text.contains(name) { t.parties.append(name) } else { t.wrong.append("\(i): \(party.status) \(party.text)") }
                        }
                    }
                }
            } catch {
                tally.withLock { $0.wrong.append("\(i): \(error)") }
            }
        }
        let t = tally.withLock { $0 }
        #expect(t.wrong.count == 0, "\(t.wrong.prefix(5))")
        #expect(t.unknown == 64 * 10 / 4)
        #expect(t.over > 0)
        // Every valid change is there, every refused one left nothing.
        let check = try TestClient(port: port)
        for (i, login) in logins.enumerated() {
            let actual = json(try check.send("GET", "/pedidos/actual", login.token))
            #expect(actual["id"] as? Int == login.pedido)
            let lineas = (actual["lineas"] as? [[String: Any]]) ?? []
            #expect(lineas.map { $0["cantidad"] as? Int } == [t.added[i]], "client \(i)")
        }
        let feed = try check.request("GET", "/queue").text
        #expect(t.parties.allSatisfy { feed.contains("name:\($0),") })
        #expect(feed.components(separatedBy: "name:Grupo").count - 1 == t.parties.count)
        // And they were gathered: fewer transactions than writes.
        let metrics = try check.request("GET", "/metrics").text
        let transactions = metric(metrics, "comanda_db_write_transactions_total")
        let requests = metric(metrics, "comanda_db_write_requests_total")
        #expect(transactions > 0 && transactions < requests, "\(transactions) transactions for \(requests) writes")
    }

    /// Half the writers add parties through the JSON route (answered once
    /// the writer's batch commits, holding no thread), half through the
    /// legacy feed (answered on a blocking thread that waits for it).
    @Test func everyAcknowledgedWriteSurvivesKill9RightAfterABurst() throws {
        let first = try start()
        defer { try? FileManager.default.removeItem(atPath: first.dir) }
        let port = first.process.port
        let setup = try TestClient(port: port)
        _ = try setup.registerAndLogin("anfitriona")
        let (promoted, _) = try runComanda(["create-staff", "anfitriona", "--rol", "anfitrion", "--database", first.dir + "/group.sqlite"], in: first.dir)
        try #require(promoted == 0)
        let host = try setup.registerAndLoginExisting("anfitriona")
        let acknowledged = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let queuePath = first.queuePath
        let writers = DispatchGroup()
        for i in 0..<32 {
            writers.enter()
            Thread {
                defer { writers.leave() }
                guard let c = try? TestClient(port: port, timeout: 2) else { return }
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    let name = "Burst\(i)x\(n)"
                    n += 1
                    let answer = i % 2 == 0
                        ? try? c.postJSON("/reservations", #"{"name": "\#(name)", "size": 2}"#, token: host)
                        : try? c.request("POST", queuePath + "/" + name + "/2")
                    guard let r = answer else { return }
                    if r.status == 201 { acknowledged.withLock { $0.append(name) } }
                }
            }.start()
        }
        // The kill comes in the middle of the burst, with writes in flight.
        let deadline = Date().addingTimeInterval(20)
        while acknowledged.withLock({ $0.count }) < 600 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        first.process.kill9()
        stop.store(true, ordering: .relaxed)
        writers.wait()
        let acked = acknowledged.withLock { $0 }
        #expect(acked.count >= 600)
        // Both ways were acknowledged before the kill.
        #expect(acked.contains { $0.hasPrefix("Burst0x") } && acked.contains { $0.hasPrefix("Burst1x") })

        let second = try start(first.dir)
        defer { _ = second.process.stop() }
        let feed = try TestClient(port: second.process.port).request("GET", "/queue").text
        let listed = Set(feed.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: "name:") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "," })
        })
        let lost = acked.filter { !listed.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(acked.count) acknowledged parties lost: \(lost.prefix(5))")
    }
}
