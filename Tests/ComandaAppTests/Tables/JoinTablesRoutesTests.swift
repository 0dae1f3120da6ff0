@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// A seated party that grew: free tables joined to its check, all or
/// nothing, and freed with it; moved, it leaves them to be cleaned.
@Suite struct JoinTablesRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    @Test func freeTablesJoinASeatedPartyAndLeaveWithIt() throws {
        try withBill { c, db, boss, waiter, cook in
            var mesas: [String: Int] = [:]
            for nombre in ["T1", "T2", "T3", "T4", "Terraza 1"] {
                mesas[nombre] = try #require(json(try c.postJSON("/mesas", #"{"nombre": "\#(nombre)", "plazas": 4}"#, token: boss))["id"] as? Int)
            }
            let t1 = try #require(mesas["T1"]), t2 = try #require(mesas["T2"]), t3 = try #require(mesas["T3"]), t4 = try #require(mesas["T4"])
            let cuenta = try #require(json(try c.postJSON("/mesas/\(t1)/sentar", #"{"comensales": 6}"#, token: waiter))["id"] as? Int)
            #expect(try c.postJSON("/mesas/\(t4)/sentar", #"{"comensales": 2}"#, token: waiter).status == 201)
            let unir = "/cuentas/\(cuenta)/unir"
            #expect(try c.postJSON(unir, #"{"mesas": [\#(t2)]}"#, token: cook).status == 403)
            for (body, field) in [(#"{"mesas": []}"#, "mesas"), (#"{"mesas": [\#(t1)]}"#, "mesas"), (#"{"mesas": [\#(t2), \#(t2)]}"#, "mesas"),
                                  (#"{"mesas": [99999]}"#, "mesas"), (#"{"mesas": "T2"}"#, "mesas"), (#"{}"#, "mesas")] {
                let r = try c.postJSON(unir, body, token: waiter)
                #expect(r.status == 422 && r.errorField == field, "\(body): \(r.text)")
            }
            // A busy table among them: nothing is joined, and the answer says how that table is.
            let busy = try c.postJSON(unir, #"{"mesas": [\#(t2), \#(t4)]}"#, token: waiter)
            #expect(busy.status == 409 && busy.errorCode == "mesa_no_libre" && (json(busy)["error"] as? [String: Any])?["estado"] as? String == "ocupada", "\(busy.text)")
            func floor() throws -> [Int: [String: Any]] {
                let list = try #require(json(try c.authed("GET", "/mesas", waiter))["mesas"] as? [[String: Any]])
                return Dictionary(uniqueKeysWithValues: list.compactMap { m in (m["id"] as? Int).map { ($0, m) } })
            }
            #expect(try floor()[t2]?["estado"] as? String == "libre")
            let joined = try c.postJSON(unir, #"{"mesas": [\#(t2), \#(t3)]}"#, token: waiter)
            #expect(joined.status == 200 && json(joined)["id"] as? Int == cuenta, "\(joined.text)")
            var now = try floor()
            for t in [t2, t3] {
                #expect(now[t]?["estado"] as? String == "ocupada" && now[t]?["unida_a"] as? Int == t1 && now[t]?["cuenta_id"] as? Int == cuenta)
                #expect(now[t]?["comensales"] is NSNull)
            }
            // Moved to the terrace: the party takes one table; the old ones wait to be cleaned.
            let terraza = try #require(mesas["Terraza 1"])
            #expect(try c.postJSON("/cuentas/\(cuenta)/mover", #"{"mesa_id": \#(terraza)}"#, token: waiter).status == 200)
            now = try floor()
            #expect([t1, t2, t3].allSatisfy { now[$0]?["estado"] as? String == "por_limpiar" })
            #expect(now[terraza]?["cuenta_id"] as? Int == cuenta)
            // Joined again there: freed with the party.
            for t in [t2, t3] { #expect(try c.postJSON("/mesas/\(t)/limpia", "{}", token: waiter).status == 200) }
            #expect(try c.postJSON(unir, #"{"mesas": [\#(t2), \#(t3)]}"#, token: waiter).status == 200)
            #expect(try c.postJSON("/mesas/\(terraza)/liberar", "{}", token: waiter).status == 200, "no lines: the check is closed")
            now = try floor()
            #expect([terraza, t2, t3].allSatisfy { now[$0]?["estado"] as? String == "por_limpiar" })
            let closed = try c.postJSON(unir, #"{"mesas": [\#(t1)]}"#, token: waiter)
            #expect(closed.status == 409 && closed.errorCode == "cuenta_cerrada")
        }
    }
}
