import ComandaCore
import ComandaRuntime
import ComandaStore
import ComandaTestSupport
import Dispatch
import Foundation
import GRDB
import Testing

@Suite struct BillStoreTests {
    static let madrid = TimeZone(identifier: "Europe/Madrid") ?? .current
    static let emisor = AppDatabase.Emisor(nif: "B12345674", serie: "T", zone: madrid)
    /// 2026-11-26 12:00 UTC.
    static let noon: Int64 = 1_795_694_400

    /// Dishes at 10 %, 21 % and 4 %: 8.50, 23.95 and 4.50.
    private func dishes(_ db: AppDatabase) throws -> [Int64] {
        _ = try db.importPlatos([DatosPlato(nombre: #"Croquetas "de la abuela" \ 日本"#, descripcion: "De jamón", precioCentimos: 850, tipo: "Entrantes"),
                                 DatosPlato(nombre: "Vino", descripcion: "Tinto", precioCentimos: 2_395, tipo: "Bebidas"),
                                 DatosPlato(nombre: "Pan", descripcion: "Del día", precioCentimos: 450, tipo: "Entrantes")],
                                onlyFirstTime: false)
        let ids = try db.menuSnapshot().platos.sorted { $0.id < $1.id }.map(\.id)
        _ = try db.updatePlato(id: ids[1], CambiosPlato(iva: 21))
        _ = try db.updatePlato(id: ids[2], CambiosPlato(iva: 4))
        return ids
    }

    /// A seated table whose check has the three dishes (cantidad 1, 2, 3), sent: 8.50 + 47.90 + 13.50 = 69.90.
    private func sentCheck(_ db: AppDatabase, _ platos: [Int64], _ nombre: String) throws -> Cuenta {
        let mesa = try db.createMesa(nombre: nombre, zona: "Sala", plazas: 4, now: Self.noon).wait()
        let cuenta = try db.sentar(mesaID: mesa.id, comensales: 2, reservationID: nil, unir: [], camareroID: nil, now: Self.noon).wait()
        for (i, plato) in platos.enumerated() {
            _ = try db.addLineaCuenta(cuentaID: cuenta.id, platoID: plato, cantidad: i + 1, curso: 1, notas: "", opciones: [], origen: .camarero).wait()
        }
        _ = try db.enviarCuenta(cuentaID: cuenta.id, camarero: nil, now: Self.noon).wait()
        return try #require(try db.cuentaConLineas(id: cuenta.id))
    }

    private func pay(_ db: AppDatabase, _ cuenta: Cuenta, _ importe: ImporteCobro, metodo: MetodoPago = .tarjeta, propina: Int = 0,
                     entregado: Int? = nil, at t: Int64 = noon) throws -> (Pago, Factura, Cuenta) {
        try db.cobrar(cuentaID: cuenta.id, AppDatabase.Cobrar(metodo: metodo, importe: importe, propinaCentimos: propina, entregadoCentimos: entregado),
                      emisor: Self.emisor, now: t).wait()
    }

    @Test func aCheckPaidInSharesThenAnInvoiceVoided() throws {
        let db = try AppDatabase.inMemory()
        let platos = try dishes(db)
        let cuenta = try sentCheck(db, platos, "T1")
        #expect(cuenta.totalCentimos == 6990)
        // Lines not yet sent: refused; nothing changes.
        let other = try sentCheck(db, platos, "T2")
        _ = try db.addLineaCuenta(cuentaID: other.id, platoID: platos[0], cantidad: 1, curso: 1, notas: "", opciones: [], origen: .camarero).wait()
        #expect(throws: CuentaError.lineasSinEnviar) { try pay(db, other, .todo) }
        #expect(throws: CuentaError.invalid(field: "importe", problem: "must be from 0.01 to what is owed (69.90)")) { try pay(db, cuenta, .importe(6991)) }

        let (p1, f1, c1) = try pay(db, cuenta, .partes(3), metodo: .efectivo, entregado: 5000)
        #expect(p1.importeCentimos == 2330 && p1.cambioCentimos == 2670)
        #expect(f1.numero == "T2026-000001" && f1.estado == .emitida && c1.estado == .abierta && c1.cobradoCentimos == 2330)
        #expect(f1.desglose.reduce(0) { $0 + $1.parte } == 2330)
        #expect(f1.desglose.map(\.iva) == [4, 10, 21])
        // The invoice as stored reads back as issued: names with quotes, a backslash and any script.
        #expect(try db.factura(id: f1.id) == f1)
        #expect(f1.lineas.first?.nombre == #"Croquetas "de la abuela" \ 日本"#)
        let (_, f2, c2) = try pay(db, cuenta, .partes(2), propina: 200)
        #expect(f2.importeCentimos == 2330 && f2.numero == "T2026-000002" && c2.propinasCentimos == 200)
        // Cash short of the amount and the tip.
        #expect(throws: CuentaError.self) { try pay(db, cuenta, .todo, metodo: .efectivo, propina: 100, entregado: 2330) }
        let (_, f3, c3) = try pay(db, cuenta, .todo)
        #expect(f3.importeCentimos == 2330 && c3.estado == .cobrada && c3.pendienteCentimos == 0)
        #expect(c3.facturas == [f1.id, f2.id, f3.id])
        // Rate by rate, the three invoices add up to the lines.
        for rate in [4, 10, 21] {
            let invoiced = [f1, f2, f3].flatMap(\.desglose).filter { $0.iva == rate }.reduce(0) { $0 + $1.parte }
            #expect(invoiced == c3.lineas.filter { $0.iva == rate }.reduce(0) { $0 + $1.subtotalCentimos }, "\(rate)")
        }
        #expect(throws: CuentaError.nadaQueCobrar) { try pay(db, cuenta, .todo) }

        // Voided: owed again, the check open again; a second void is refused.
        let voided = try db.anularFactura(id: f2.id, motivo: "Cobrada dos veces", gerenteID: nil, emisor: Self.emisor, now: Self.noon + 60).wait()
        #expect(voided.estado == .anulada)
        #expect(throws: CuentaError.transicionNoValida(estado: "anulada")) {
            try db.anularFactura(id: f2.id, motivo: "Otra vez", gerenteID: nil, emisor: Self.emisor, now: Self.noon + 61).wait()
        }
        let reopened = try #require(try db.cuentaConLineas(id: cuenta.id))
        #expect(reopened.estado == .abierta && reopened.pendienteCentimos == 2330 && reopened.facturas.count == 3)

        // The chain: three altas and an anulacion; the record after the cancellation names the voided invoice.
        let registros = try db.registros(despues: 0, limite: 500)
        #expect(registros.map(\.posicion) == [1, 2, 3, 4])
        #expect(registros[0].anterior == nil && registros[0].huellaAnterior == "")
        guard case .anulacion(_, let num, _, _) = registros[3].registro else { Issue.record("not an anulacion"); return }
        #expect(num == "T2026-000002")
        #expect(registros[3].anterior?.numSerie == "T2026-000003" && registros[3].huellaAnterior == registros[2].huella)
        // Lines whose rate is already partly invoiced cannot be paid by lines: the rate's money would go below zero.
        #expect(throws: CuentaError.self) { try pay(db, cuenta, .lineas([reopened.lineas[0].id])) }
        let (_, f4, c4) = try pay(db, cuenta, .todo)
        let after = try db.registros(despues: 4, limite: 1)
        #expect(after.first?.anterior?.numSerie == "T2026-000002" && after.first?.anterior?.huella == registros[3].huella)
        #expect(f4.numero == "T2026-000004" && c4.estado == .cobrada && f4.lineas.count == 3)
        #expect(try db.verificarCadena() == (count: 5, firstBad: nil))
        // Paging.
        #expect(try db.registros(despues: 2, limite: 2).map(\.posicion) == [3, 4])
    }

    /// The breakdown of lines-paid invoices, and lines refused when already paid or voided.
    @Test func payingByLines() throws {
        let db = try AppDatabase.inMemory()
        let platos = try dishes(db)
        let cuenta = try sentCheck(db, platos, "T1")
        let (_, f1, _) = try pay(db, cuenta, .lineas([cuenta.lineas[1].id]))
        #expect(f1.importeCentimos == 4790 && f1.desglose == [ParteIVA(iva: 21, base: 3959, cuota: 831)])
        #expect(throws: CuentaError.self) { try pay(db, cuenta, .lineas([cuenta.lineas[1].id])) }
        #expect(throws: CuentaError.self) { try pay(db, cuenta, .lineas([999])) }
        // A void of a paid line is refused (its money is invoiced); an unpaid one is fine.
        #expect(throws: CuentaError.lineaCobrada) {
            try db.anularLineaCuenta(cuentaID: cuenta.id, lineaID: cuenta.lineas[1].id, motivo: "Error", now: Self.noon).wait()
        }
        _ = try db.anularLineaCuenta(cuentaID: cuenta.id, lineaID: cuenta.lineas[0].id, motivo: "Error", now: Self.noon).wait()
        #expect(throws: CuentaError.self) { try pay(db, cuenta, .lineas([cuenta.lineas[0].id])) }
        let (_, f2, c2) = try pay(db, cuenta, .todo)
        #expect(f2.importeCentimos == 1350 && c2.estado == .cobrada && f2.lineas.map(\.nombre) == ["Vino", "Pan"])
    }

    /// 64 payments at once on a real file: numbers consecutive with no gap
    /// or repeat, and the chain intact in commit order.
    @Test func concurrentPaymentsNumberWithoutGaps() throws {
        let folder = try makeTemporaryFolder("comanda-bill-race")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try AppDatabase.open(path: folder + "/bill.sqlite")
        let platos = try dishes(db)
        let cuentas = try (0..<64).map { try sentCheck(db, platos, "T\($0)") }
        let numbers = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            do {
                let (_, factura, _) = try pay(db, cuentas[i], i % 2 == 0 ? .todo : .partes(2))
                numbers.withLock { $0.append(factura.numero) }
            } catch {
                Issue.record("\(error)")
            }
        }
        let got = numbers.withLock { $0 }.sorted()
        #expect(got == (1...64).map { Verifactu.numero(serie: "T", anio: 2026, secuencia: $0) })
        #expect(try db.verificarCadena() == (count: 64, firstBad: nil))
        // The chain's order is the numbers' order: each record after the one before it.
        let chain = try db.registros(despues: 0, limite: 100)
        #expect(chain.map(\.posicion) == Array(1...64))
    }

    /// SQLite itself refuses to change or delete a record or an invoice; a
    /// record tampered with behind the triggers' back is found by verificar.
    @Test func recordsCannotChangeAndTamperingIsFound() throws {
        let folder = try makeTemporaryFolder("comanda-bill-triggers")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/bill.sqlite"
        do {
            let db = try AppDatabase.open(path: path)
            let platos = try dishes(db)
            for i in 0..<3 { _ = try pay(db, try sentCheck(db, platos, "T\(i)"), .todo) }
        }
        // The app's last connection may still be closing on its writer's thread (a close checkpoints
        // the log under a lock): wait for it, as the app's own connections do, rather than fail at once.
        var patient = Configuration()
        patient.busyMode = .timeout(5)
        let raw = try DatabaseQueue(path: path, configuration: patient)
        for sql in ["UPDATE registro SET importe_total = '1.00' WHERE posicion = 2", "DELETE FROM registro WHERE posicion = 3",
                    "UPDATE factura SET importe = 1 WHERE id = 1", "DELETE FROM factura WHERE id = 1", "DELETE FROM cobro",
                    "UPDATE cobro SET propina = 0"] {
            #expect(throws: DatabaseError.self, "\(sql)") { try raw.write { try $0.execute(sql: sql) } }
        }
        try raw.write { db in
            try db.execute(sql: "DROP TRIGGER registro_no_se_modifica")
            try db.execute(sql: "UPDATE registro SET importe_total = '1.00' WHERE posicion = 2")
        }
        try raw.close()
        let db = try AppDatabase.open(path: path)
        #expect(try db.verificarCadena() == (count: 2, firstBad: 2))
    }
}
