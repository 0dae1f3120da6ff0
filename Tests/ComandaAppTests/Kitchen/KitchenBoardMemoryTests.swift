@testable import ComandaApp
import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// The kitchen's board of comandas is kept in memory (`LiveList`) and told
/// of every change: whatever the waiters, the kitchen and the manager do, a
/// poll answers exactly what the database holds, byte for byte.
@Suite struct KitchenBoardMemoryTests {
    private typealias Staff = ChecksRoutesTests.Staff

    private func withStaff(_ body: (Staff) throws -> Void) throws { try ChecksRoutesTests().withStaff(body) }

    /// The board as polled, and as the database makes it.
    private func board(_ s: Staff, _ query: String, _ estados: [EstadoComanda]) throws -> (polled: TestResponse, stored: [UInt8]) {
        // A connection of its own: the one the test shares may have idled out behind a long read.
        let polled = try TestClient(port: s.port, timeout: 60).authed("GET", "/cocina/comandas" + query, s.cook)
        return (polled, ChecksJSON.cocina(try s.db.comandasCocina(estados: estados)))
    }

    @Test func whateverHappensThePolledBoardIsTheDatabases() throws {
        try withStaff { s in
            let platos = try s.db.menuSnapshot().platos.filter { $0.opciones.allSatisfy { $0.min == 0 } }.prefix(6).map(\.id)
            let cuentas = try (1...4).map { try s.seated("T\($0)").cuenta }
            var random = SplitMix64(seed: 20261126)
            var last: (tag: String, body: [UInt8])?
            var unchanged = 0, changed = 0
            var polls = 0
            for step in 0..<260 {
                let cuenta = cuentas[Int.random(in: 0..<cuentas.count, using: &random)]
                switch Int.random(in: 0..<10, using: &random) {
                case 0...2:
                    let plato = platos[Int.random(in: 0..<platos.count, using: &random)]
                    _ = try s.c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(plato), "curso": \#(Int.random(in: 1...3, using: &random))}"#,
                                         token: s.waiter)
                case 3: _ = try s.c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: s.waiter)
                case 4: _ = try s.c.postJSON("/cuentas/\(cuenta)/marchar", #"{"curso": \#(Int.random(in: 2...3, using: &random))}"#, token: s.waiter)
                case 5, 6:
                    // The kitchen readies a fired comanda, or the waiter serves a ready one.
                    let board = try #require(try s.c.authed("GET", "/cocina/comandas", s.cook).json as? [[String: Any]])
                    guard let pick = board.randomElement(using: &random), let id = pick["id"] as? Int, let of = pick["cuenta_id"] as? Int else { break }
                    if pick["estado"] as? String == "marchada" {
                        #expect(try s.c.postJSON("/cocina/comandas/\(id)/preparada", "{}", token: s.cook).status == 200)
                    } else {
                        #expect(try s.c.postJSON("/cuentas/\(of)/comandas/\(id)/servida", "{}", token: s.waiter).status == 200)
                    }
                case 7:
                    // The manager voids a sent line.
                    let check = try #require(try s.c.authed("GET", "/cuentas/\(cuenta)", s.waiter).json as? [String: Any])
                    let sent = (check["lineas"] as? [[String: Any]] ?? []).filter { ["marchada", "preparada", "en_espera"].contains($0["estado"] as? String) }
                    guard let linea = sent.randomElement(using: &random)?["id"] as? Int else { break }
                    _ = try s.c.postJSON("/cuentas/\(cuenta)/lineas/\(linea)/anular", #"{"motivo": "se equivocó"}"#, token: s.boss)
                default:
                    // Polled: the board's own states from memory, others from the database.
                    polls += 1
                    for (query, estados) in [("", ChecksService.enTablero), ("?estado=marchada", [.marchada]),
                                             ("?estado=preparada,marchada,marchada", ChecksService.enTablero),
                                             ("?estado=en_espera,servida", [.en_espera, .servida])] as [(String, [EstadoComanda])] {
                        let (polled, stored) = try board(s, query, estados)
                        #expect(polled.status == 200)
                        let same = polled.body == stored
                        #expect(same, "step \(step) \(query): \(polled.text) != \(String(decoding: stored, as: UTF8.self))")
                    }
                    // A tag says whether the board changed: asked again at once, the same one and 304.
                    let (polled, _) = try board(s, "", ChecksService.enTablero)
                    let tag = try #require(polled.header("ETag"))
                    let again = try s.c.request("GET", "/cocina/comandas", headers: [("Authorization", "Bearer \(s.cook)"), ("If-None-Match", tag)])
                    #expect(again.status == 304)
                    // What 304 promises: the same tag as at the last poll is the same body, another tag another body.
                    if let last {
                        let same = polled.body == last.body
                        #expect(same == (tag == last.tag), "step \(step): tags \(last.tag) → \(tag)")
                        if same { unchanged += 1 } else { changed += 1 }
                    }
                    last = (tag, polled.body)
                }
            }
            #expect(polls > 20 && unchanged > 0 && changed > 0, "\(polls) polls: \(unchanged) unchanged, \(changed) changed")
            let (polled, stored) = try board(s, "", ChecksService.enTablero)
            let same = polled.body == stored
            #expect(same)
            #expect(((polled.json as? [Any])?.count ?? 0) > 3, "a board worth comparing: \(polled.text)")
        }
    }

    /// Comandas fired while the board is first read from the database (a
    /// long read: 5,000 comandas) are on it afterwards, none lost.
    @Test func changesWhileTheBoardIsFirstReadAreKept() throws {
        try withStaff { s in
            let plato = try #require(try s.db.menuSnapshot().platos.first { $0.opciones.isEmpty }?.id)
            let old = try s.seated("T0").cuenta
            let cuenta = try s.seated("T1").cuenta
            // Written straight to the file (seconds under the thread sanitizer): the client's
            // connection may idle out meanwhile, so the rest goes over fresh ones.
            try LongReadTests.fire(5_000, on: s.db, cuenta: old, mesa: "T0", plato: plato)
            let c = try TestClient(port: s.port, timeout: 60)
            let first = try TestClient(port: s.port, timeout: 60)
            try first.send("GET /cocina/comandas HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(s.cook)\r\n\r\n")
            // Sends and readies while it is read (the first answer may hold some of them, or none).
            var fired = 0
            let start = Date()
            while Date().timeIntervalSince(start) < 0.6 {
                #expect(try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(plato)}"#, token: s.waiter).status == 201)
                let sent = try #require(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: s.waiter).json as? [String: Any])
                if fired % 2 == 1, let id = (sent["comandas"] as? [[String: Any]])?.first?["id"] as? Int {
                    #expect(try c.postJSON("/cocina/comandas/\(id)/preparada", "{}", token: s.cook).status == 200)
                }
                fired += 1
            }
            let answer = try first.readResponse()
            #expect(answer.status == 200)
            let (polled, stored) = try board(s, "", ChecksService.enTablero)
            let count = (polled.json as? [Any])?.count ?? 0, same = polled.body == stored
            #expect(count == 5_000 + fired, "\(fired) fired meanwhile")
            #expect(same)
        }
    }
}
