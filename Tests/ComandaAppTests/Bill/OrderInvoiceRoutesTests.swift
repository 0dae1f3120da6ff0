@testable import ComandaApp
import ComandaCore
import ComandaRuntime
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// Online orders are invoiced when handed over: one simplified invoice,
/// issued in the same write as `entregado`, exactly once however many times
/// the kitchen taps it at once; its lines at the VAT rate each dish had when
/// the line was added; none without the company.
@Suite struct OrderInvoiceRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    /// An order of 2 tortillas (10 %) and a flan (21 % when added), accepted and prepared: its id.
    private func preparedOrder(_ c: TestClient, _ db: AppDatabase, boss: String, cook: String) throws -> (id: Int, customer: String) {
        let platos = try db.menuSnapshot().platos
        let tortilla = try #require(platos.first { $0.nombre == "Tortilla" }?.id), flan = try #require(platos.first { $0.nombre == "Flan" }?.id)
        _ = try c.send("PATCH", "/platos/\(flan)", #"{"iva": 21}"#, token: boss)
        let customer = try c.registerAndLogin("ana")
        let id = try c.placeOrder(customer, platos: [(Int(tortilla), 2), (Int(flan), 1)])
        // The rate changes after the line was added: the invoice keeps the one it had.
        _ = try c.send("PATCH", "/platos/\(flan)", #"{"iva": 10}"#, token: boss)
        #expect(try c.postJSON("/cocina/pedidos/\(id)/aceptar", #"{"minutos": 10}"#, token: cook).status == 200)
        #expect(try c.postJSON("/cocina/pedidos/\(id)/preparado", "{}", token: cook).status == 200)
        return (id, customer)
    }

    @Test func anOrderHandedOverIsInvoicedExactlyOnce() throws {
        try withBill { c, db, boss, _, cook in
            let (id, customer) = try preparedOrder(c, db, boss: boss, cook: cook)
            let bad = try c.postJSON("/cocina/pedidos/\(id)/entregado", #"{"metodo": "bizum"}"#, token: cook)
            #expect(bad.status == 422 && bad.errorField == "metodo")
            // Eight taps at once: one hands it over and invoices it, the others find it handed over.
            let port = c.port
            let statuses = Locked<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                guard let client = try? TestClient(port: port),
                      let r = try? client.postJSON("/cocina/pedidos/\(id)/entregado", #"{"metodo": "efectivo"}"#, token: cook) else { return }
                statuses.withLock { $0.append(r.status) }
            }
            #expect(statuses.withLock { $0.sorted() } == [200, 409, 409, 409, 409, 409, 409, 409])
            let pedido = json(try c.authed("GET", "/cocina/pedidos/\(id)", cook))
            let facturaID = try #require(pedido["factura_id"] as? Int)
            #expect(json(try c.authed("GET", "/pedidos/\(id)", customer))["factura_id"] as? Int == facturaID)
            let facturas = try #require(try c.authed("GET", "/facturas", boss).json as? [[String: Any]])
            #expect(facturas.count == 1)
            let f = json(try c.authed("GET", "/facturas/\(facturaID)", boss))
            #expect(f["tipo"] as? String == "F2" && f["numero"] as? String == "T2026-000001" && f["metodo"] as? String == "efectivo")
            #expect(f["pedido_id"] as? Int == id && f["cuenta_id"] is NSNull && f["mesa"] is NSNull)
            #expect(f["importe_total"] as? Double == 20.5)
            let desglose = try #require(f["desglose"] as? [[String: Any]])
            #expect(desglose.map { $0["iva"] as? Int } == [10, 21])
            #expect(desglose.map { $0["base"] as? Double } == [14.55, 3.72])
            #expect((f["lineas"] as? [[String: Any]])?.map { $0["nombre"] as? String } == ["Tortilla", "Flan"])
            let ticket = try c.authed("GET", "/facturas/\(facturaID)/ticket", boss).text
            #expect(ticket.contains("Pedido #\(id)") && !ticket.contains("Mesa"), "\(ticket)")
            let caja = json(try c.authed("GET", "/informes/caja", boss))
            #expect(caja["pedidos"] as? Int == 1 && caja["total"] as? Double == 20.5 && caja["efectivo_en_caja"] as? Double == 20.5)
            #expect(try db.verificarCadena() == (1, nil))
            let ventas = json(try c.authed("GET", "/informes/ventas", boss))
            #expect((ventas["sala"] as? [String: Any])?["facturas"] as? Int == 0 && ventas["total"] as? Double == 20.5,
                    "an online order's invoice is not the dining room's")
            // Its invoice can be voided and replaced like a table's.
            let f3 = try c.postJSON("/facturas/\(facturaID)/completa",
                                    #"{"cliente": {"nif": "X1234567L", "nombre": "Ana Pérez", "direccion": "Calle Luna 4"}}"#, token: boss)
            #expect(f3.status == 201 && json(f3)["pedido_id"] as? Int == id && json(f3)["cuenta_id"] is NSNull, "\(f3.text)")
            #expect(json(try c.authed("GET", "/informes/caja", boss))["pedidos"] as? Int == 1)
        }
    }

    @Test func withoutTheCompanyNoInvoiceAndTheBodyIsOptional() throws {
        try withBill(empresa: false) { c, db, boss, _, cook in
            let (id, _) = try preparedOrder(c, db, boss: boss, cook: cook)
            // No body at all, as before invoices.
            let r = try c.request("POST", "/cocina/pedidos/\(id)/entregado", headers: [("Authorization", "Bearer \(cook)")])
            #expect(r.status == 200 && json(r)["factura_id"] is NSNull && json(r)["estado"] as? String == "entregado")
            #expect(try db.verificarCadena() == (0, nil))
        }
    }
}
