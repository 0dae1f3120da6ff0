@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// Who serves a table: the waiter who seats it; a host seats without one;
/// any waiter (or the manager) takes a table over, open checks only.
@Suite struct TakeTableRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    @Test func aHostSeatsWithoutAWaiterAndAWaiterTakesTheTable() throws {
        try withBill { c, db, boss, waiter, cook in
            let host = try c.staff("sara", .anfitrion, db), other = try c.staff("marta", .camarero, db)
            let t1 = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss))["id"] as? Int)
            let t2 = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T2", "plazas": 4}"#, token: boss))["id"] as? Int)
            // Seated by the host: nobody serves it yet.
            let byHost = try c.postJSON("/mesas/\(t1)/sentar", #"{"comensales": 2}"#, token: host)
            let cuenta = try #require(json(byHost)["id"] as? Int)
            #expect(byHost.status == 201 && json(byHost)["camarero"] is NSNull, "\(byHost.text)")
            // Seated by a waiter: that waiter serves it.
            let byWaiter = try c.postJSON("/mesas/\(t2)/sentar", #"{"comensales": 2}"#, token: waiter)
            #expect((json(byWaiter)["camarero"] as? [String: Any])?["nombre"] as? String != nil)
            // Taking the host's table: the caller is its waiter from now on; the host and the kitchen may not.
            #expect(try c.authed("POST", "/cuentas/\(cuenta)/atender", host).status == 403)
            #expect(try c.authed("POST", "/cuentas/\(cuenta)/atender", cook).status == 403)
            let taken = try c.authed("POST", "/cuentas/\(cuenta)/atender", other)
            #expect(taken.status == 200 && (json(taken)["camarero"] as? [String: Any])?["nombre"] as? String == "marta Nombre", "\(taken.text)")
            // And a colleague takes it over again.
            let again = try c.authed("POST", "/cuentas/\(cuenta)/atender", waiter)
            #expect(again.status == 200 && (json(again)["camarero"] as? [String: Any])?["nombre"] as? String != "marta Nombre")
            let listed = try #require(try c.authed("GET", "/cuentas/\(cuenta)", other).json as? [String: Any])
            #expect((listed["camarero"] as? [String: Any])?["id"] as? Int == (json(again)["camarero"] as? [String: Any])?["id"] as? Int)
            #expect(try c.authed("POST", "/cuentas/99999/atender", waiter).status == 404)
            // A closed check is nobody's to take.
            let empty = try #require(json(byWaiter)["id"] as? Int)
            #expect(try c.authed("POST", "/mesas/\(t2)/liberar", waiter).status == 200)
            let refused = try c.authed("POST", "/cuentas/\(empty)/atender", other)
            #expect(refused.status == 409 && refused.errorCode == "cuenta_cerrada", "\(refused.text)")
        }
    }
}
