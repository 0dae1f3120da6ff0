@testable import ComandaApp
import ComandaCore
import ComandaRuntime
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// Printing over real sockets: fake ESC/POS printers on loopback (answering
/// `DLE EOT` as a printer does, switchable to paper out, silent, or off) and
/// the application's own spooler. A send reaches each station's printer with
/// its lines; a fire and a void follow; a cash payment kicks the drawer; a
/// printer off then back prints every job once, in order; paper out holds
/// jobs; a silent printer still prints; the backup takes over and gives back.
@Suite(.serialized) struct PrintRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    /// Waits (up to `seconds`) until `condition` holds.
    private func eventually(_ seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    private struct Floor {
        let c: TestClient
        let boss: String, waiter: String
        let tortilla: Int, flan: Int
        let clock: TestClock
        func printer(_ nombre: String, _ fake: FakePrinter, _ extra: String = "") throws -> Int {
            let r = try c.postJSON("/impresoras", #"{"nombre": "\#(nombre)", "host": "127.0.0.1", "puerto": \#(fake.port), "columnas": 42\#(extra)}"#, token: boss)
            #expect(r.status == 201, "\(r.text)")
            return try #require((r.json as? [String: Any])?["id"] as? Int)
        }
        func seat(_ nombre: String) throws -> Int {
            let mesa = try #require((try c.postJSON("/mesas", #"{"nombre": "\#(nombre)", "plazas": 4}"#, token: boss).json as? [String: Any])?["id"] as? Int)
            return try #require((try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter).json as? [String: Any])?["id"] as? Int)
        }
    }

    private func withPrinting(respaldo: Int = 60, _ body: (Floor, AppDatabase) throws -> Void) throws {
        let clock = TestClock()
        clock.set(Int64(Date().timeIntervalSince1970))
        let (app, db) = try makeUserApp(clock: clock) { config in
            config.zonaHoraria = "Europe/Madrid"
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe S.L."
            config.impresionRespaldoSegundos = respaldo
        }
        try withServer(responder: app) { _, port in
            app.start()
            defer { app.stop() }
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db), waiter = try c.staff("luis", .camarero, db)
            let platos = try db.menuSnapshot().platos
            try body(Floor(c: c, boss: boss, waiter: waiter, tortilla: Int(try #require(platos.first { $0.nombre == "Tortilla" }?.id)),
                           flan: Int(try #require(platos.first { $0.nombre == "Flan" }?.id)), clock: clock), db)
        }
    }

    @Test func aSendAFireAVoidAndACashPaymentReachTheirPrinters() throws {
        let cocina = try FakePrinter(), barra = try FakePrinter()
        defer { cocina.stop(); barra.stop() }
        try withPrinting { f, db in
            let c = f.c
            let cocinaID = try f.printer("Cocina", cocina), barraID = try f.printer("Barra", barra, #", "cajon": true"#)
            #expect(try c.postJSON("/estaciones", #"{"nombre": "Cocina", "impresora_id": \#(cocinaID), "categorias": ["Entrantes"], "por_defecto": true}"#, token: f.boss).status == 201)
            #expect(try c.postJSON("/estaciones", #"{"nombre": "Postres", "impresora_id": \#(barraID), "categorias": ["Postres"]}"#, token: f.boss).status == 201)
            let cuenta = try f.seat("T1")
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(f.tortilla), "cantidad": 2, "notas": "poco hecha"}"#, token: f.waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(f.flan), "curso": 3}"#, token: f.waiter)
            #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: f.waiter).status == 200)
            #expect(try eventually { cocina.texts.count == 1 && barra.texts.count == 1 })
            let comanda = try #require(cocina.texts.first), postre = try #require(barra.texts.first)
            #expect(comanda.contains("Cocina") && comanda.contains("Mesa T1") && comanda.contains("2 x Tortilla") && comanda.contains("Nota: poco hecha")
                    && comanda.contains("luis Nombre") && !comanda.contains("Flan"), "\(comanda)")
            #expect(postre.contains("1 x Flan") && postre.contains("EN ESPERA") && !postre.contains("Tortilla"), "\(postre)")
            // Firing the desserts: MARCHAR at the dessert station only.
            #expect(try c.postJSON("/cuentas/\(cuenta)/marchar", #"{"curso": 3}"#, token: f.waiter).status == 200)
            #expect(try eventually { barra.texts.count == 2 })
            #expect(barra.texts[1].contains("MARCHAR") && barra.texts[1].contains("POSTRES") && barra.texts[1].contains("1 x Flan"))
            // A sent line voided: ANULADO at its station, with the reason.
            let lineas = try #require(json(try c.authed("GET", "/cuentas/\(cuenta)", f.waiter))["lineas"] as? [[String: Any]])
            let tortillaLine = try #require(lineas.first { $0["nombre"] as? String == "Tortilla" }?["id"] as? Int)
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas/\(tortillaLine)/anular", #"{"motivo": "Devuelto a cocina"}"#, token: f.boss).status == 200)
            #expect(try eventually { cocina.texts.count == 2 })
            #expect(cocina.texts[1].contains("ANULADO") && cocina.texts[1].contains("2 x Tortilla") && cocina.texts[1].contains("Motivo: Devuelto a cocina"))
            #expect(cocina.drawerKicks == 0 && barra.drawerKicks == 0)
            // Paid in cash: the drawer of the printer that holds it opens, once; and the invoice printed at the bar.
            let paid = json(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "efectivo", "entregado": 10}"#, token: f.waiter))
            #expect(try eventually { barra.drawerKicks == 1 })
            let factura = try #require((paid["factura"] as? [String: Any])?["id"] as? Int)
            let job = try c.postJSON("/facturas/\(factura)/imprimir", #"{"impresora_id": \#(barraID)}"#, token: f.waiter)
            #expect(job.status == 201 && json(job)["tipo"] as? String == "factura")
            #expect(try eventually { barra.texts.count == 3 })
            #expect(barra.texts[2].contains("FACTURA SIMPLIFICADA") && barra.texts[2].contains("[QR]") == false, "native QR is GS ( k, not an image")
            #expect(barra.tickets[2].contains(0x28) && FakePrinterBytes.contains([0x1D, 0x28, 0x6B], in: barra.tickets[2]))
            Thread.sleep(forTimeInterval: 0.5)
            #expect(cocina.drawerKicks == 0 && barra.drawerKicks == 1, "one kick, at the drawer's printer only")
            // The jobs as the API lists them: printed, newest first.
            let trabajos = try #require(try c.authed("GET", "/impresoras/\(barraID)/trabajos", f.waiter).json as? [[String: Any]])
            #expect(trabajos.map { $0["tipo"] as? String } == ["factura", "marchar", "comanda"])
            #expect(trabajos.allSatisfy { $0["estado"] as? String == "impreso" && $0["intentos"] as? Int == 1 })
            let printers = try #require(try c.authed("GET", "/impresoras", f.waiter).json as? [[String: Any]])
            #expect(printers.map { $0["estado"] as? String } == ["lista", "lista"] && printers.map { $0["pendientes"] as? Int } == [0, 0])
            // The close of the day at the bar's printer (the manager's).
            #expect(try c.postJSON("/informes/caja/imprimir", #"{"impresora_id": \#(barraID)}"#, token: f.waiter).status == 403)
            let cierre = try c.postJSON("/informes/caja/imprimir", #"{"impresora_id": \#(barraID)}"#, token: f.boss)
            #expect(cierre.status == 201 && json(cierre)["tipo"] as? String == "cierre")
            #expect(try eventually { barra.texts.count == 4 })
            #expect(barra.texts[3].contains("CIERRE DE CAJA") && barra.texts[3].contains("Efectivo"), "\(barra.texts.last ?? "")")
            // A reprint: the same ticket again, headed REIMPRESIÓN.
            let first = try #require(trabajos.last?["id"] as? Int)
            let again = try c.postJSON("/trabajos/\(first)/reimprimir", "{}", token: f.waiter)
            #expect(again.status == 201 && json(again)["reimpresion_de"] as? Int == first)
            #expect(try eventually { barra.texts.count == 5 })
            #expect(barra.texts[4].contains("REIMPRESI") && barra.texts[4].contains("1 x Flan"))
            _ = db
        }
    }

    @Test func aPrinterOffThenBackPrintsEveryJobOnceInOrder() throws {
        var cocina = try FakePrinter()
        let port = cocina.port
        defer { cocina.stop() }
        try withPrinting { f, _ in
            let c = f.c
            let cocinaID = try f.printer("Cocina", cocina)
            _ = try c.postJSON("/estaciones", #"{"nombre": "Cocina", "impresora_id": \#(cocinaID), "categorias": ["Entrantes", "Postres"]}"#, token: f.boss)
            cocina.stop()
            var cuentas: [Int] = []
            for i in 1...3 {
                let cuenta = try f.seat("M\(i)")
                _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(f.tortilla), "cantidad": \#(i)}"#, token: f.waiter)
                #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: f.waiter).status == 200)
                cuentas.append(cuenta)
            }
            #expect(try eventually {
                let p = (try c.authed("GET", "/impresoras", f.waiter).json as? [[String: Any]])?.first
                return p?["estado"] as? String == "desconectada" && p?["pendientes"] as? Int == 3
            })
            // Switched on again at the same address.
            cocina = try FakePrinter(port: port)
            #expect(try eventually(20) { cocina.texts.count == 3 })
            Thread.sleep(forTimeInterval: 0.5)
            #expect(cocina.texts.count == 3, "each job once")
            #expect(cocina.texts.map { t in ["1 x Tortilla", "2 x Tortilla", "3 x Tortilla"].first { t.contains($0) } } == ["1 x Tortilla", "2 x Tortilla", "3 x Tortilla"])
            #expect(try eventually { (try c.authed("GET", "/impresoras", f.waiter).json as? [[String: Any]])?.first?["estado"] as? String == "lista" })
        }
    }

    /// What was sent is what prints: a send made while the printer is off
    /// prints, once it is back, as it was sent, although meanwhile the dish was
    /// renamed, the station renamed, the party moved to another table and the
    /// line voided (its ANULADO follows it, naming the comanda as printed).
    @Test func whatWasSentIsWhatPrintsWhateverChangedSince() throws {
        var cocina = try FakePrinter()
        let port = cocina.port
        defer { cocina.stop() }
        try withPrinting { f, _ in
            let c = f.c
            let cocinaID = try f.printer("Cocina", cocina)
            let estacion = try #require(json(try c.postJSON("/estaciones", #"{"nombre": "Cocina", "impresora_id": \#(cocinaID), "por_defecto": true}"#, token: f.boss))["id"] as? Int)
            cocina.stop()
            let cuenta = try f.seat("T1")
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(f.tortilla), "cantidad": 2, "notas": "poco hecha"}"#, token: f.waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(f.flan), "curso": 3}"#, token: f.waiter)
            #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: f.waiter).status == 200)
            // Meanwhile: the dish renamed, the station renamed, the party moved, the tortilla voided.
            #expect(try c.send("PATCH", "/platos/\(f.tortilla)", #"{"nombre": "Tortilla de patatas"}"#, token: f.boss).status == 200)
            #expect(try c.send("PATCH", "/estaciones/\(estacion)", #"{"nombre": "Fogones"}"#, token: f.boss).status == 200)
            let t9 = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T9", "plazas": 4}"#, token: f.boss))["id"] as? Int)
            #expect(try c.postJSON("/cuentas/\(cuenta)/mover", #"{"mesa_id": \#(t9)}"#, token: f.waiter).status == 200)
            let lineas = try #require(json(try c.authed("GET", "/cuentas/\(cuenta)", f.waiter))["lineas"] as? [[String: Any]])
            let tortilla = try #require(lineas.first { $0["plato_id"] as? Int == f.tortilla }?["id"] as? Int)
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas/\(tortilla)/anular", #"{"motivo": "Se fueron"}"#, token: f.boss).status == 200)
            cocina = try FakePrinter(port: port)
            #expect(try eventually(20) { cocina.texts.count == 2 })
            let sent = try #require(cocina.texts.first), voided = try #require(cocina.texts.last)
            #expect(sent.contains("Cocina") && !sent.contains("Fogones") && sent.contains("Mesa T1") && sent.contains("2 x Tortilla")
                    && !sent.contains("patatas") && sent.contains("Nota: poco hecha") && sent.contains("1 x Flan") && sent.contains("EN ESPERA"), "\(sent)")
            // The void names the comanda it cancels as the kitchen has it on paper (Mesa T1), at the station as it is now.
            #expect(voided.contains("ANULADO") && voided.contains("Fogones") && voided.contains("Mesa T1") && voided.contains("2 x Tortilla")
                    && !voided.contains("patatas") && voided.contains("Motivo: Se fueron"), "\(voided)")
        }
    }

    @Test func paperOutHoldsJobsAndASilentPrinterStillPrints() throws {
        let cocina = try FakePrinter()
        defer { cocina.stop() }
        try withPrinting { f, _ in
            let c = f.c
            let cocinaID = try f.printer("Cocina", cocina)
            _ = try c.postJSON("/estaciones", #"{"nombre": "Cocina", "impresora_id": \#(cocinaID), "por_defecto": true}"#, token: f.boss)
            cocina.set(.paperOut)
            let cuenta = try f.seat("T1")
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(f.tortilla)}"#, token: f.waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: f.waiter)
            #expect(try eventually { (try c.authed("GET", "/impresoras", f.waiter).json as? [[String: Any]])?.first?["estado"] as? String == "sin_papel" })
            #expect(cocina.texts.isEmpty, "nothing printed without paper")
            // A printer without status (it never answers DLE EOT) is taken as ready.
            cocina.set(.silent)
            #expect(try eventually(30) { cocina.texts.count == 1 })
            #expect(cocina.texts[0].contains("1 x Tortilla"))
        }
    }

    /// The kitchen's printer (the default station) backed by the bar's, the
    /// kitchen's switched off, a tortilla sent at T1, and the backup delay
    /// (1 s) past.
    private func sendWithTheKitchenOff(_ f: Floor, cocina: FakePrinter, barra: FakePrinter) throws -> (barraID: Int, cocinaID: Int, cuenta: Int) {
        let barraID = try f.printer("Barra", barra)
        let cocinaID = try f.printer("Cocina", cocina, #", "respaldo_id": \#(barraID)"#)
        _ = try f.c.postJSON("/estaciones", #"{"nombre": "Cocina", "impresora_id": \#(cocinaID), "por_defecto": true}"#, token: f.boss)
        cocina.stop()
        let cuenta = try f.seat("T1")
        _ = try f.c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(f.tortilla)}"#, token: f.waiter)
        _ = try f.c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: f.waiter)
        f.clock.advance(2)
        return (barraID, cocinaID, cuenta)
    }

    @Test func theBackupTakesOverAndGivesBack() throws {
        let cocina = try FakePrinter(), barra = try FakePrinter()
        let port = cocina.port
        defer { barra.stop() }
        try withPrinting(respaldo: 1) { f, _ in
            let c = f.c
            let (barraID, cocinaID, cuenta) = try sendWithTheKitchenOff(f, cocina: cocina, barra: barra)
            #expect(try eventually(20) { barra.texts.count == 1 })
            #expect(barra.texts[0].contains("RESPALDO DE Cocina") && barra.texts[0].contains("1 x Tortilla"), "\(barra.texts.first ?? "")")
            let job = try #require((try c.authed("GET", "/impresoras/\(barraID)/trabajos", f.waiter).json as? [[String: Any]])?.first)
            #expect(job["respaldo_de"] as? Int == cocinaID && job["impresora_id"] as? Int == barraID)
            // Back: its own jobs print on it again.
            let back = try FakePrinter(port: port)
            defer { back.stop() }
            #expect(try eventually(20) { (try c.authed("GET", "/impresoras", f.waiter).json as? [[String: Any]])?.first { $0["id"] as? Int == cocinaID }?["estado"] as? String == "lista" })
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(f.flan)}"#, token: f.waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: f.waiter)
            #expect(try eventually { back.texts.count == 1 })
            #expect(back.texts[0].contains("1 x Flan") && !back.texts[0].contains("RESPALDO"))
            #expect(barra.texts.count == 1)
        }
    }

    /// Jobs handed to a backup that cannot print them either (out of paper)
    /// come back when their own printer is ready again, and print there
    /// without the backup's heading, once.
    @Test func jobsHandedToABackupThatCannotPrintComeBack() throws {
        let cocina = try FakePrinter(), barra = try FakePrinter()
        let port = cocina.port
        defer { barra.stop() }
        try withPrinting(respaldo: 1) { f, _ in
            let c = f.c
            barra.set(.paperOut)
            let (barraID, cocinaID, _) = try sendWithTheKitchenOff(f, cocina: cocina, barra: barra)
            // Handed to the bar's printer, which has no paper: it waits there.
            #expect(try eventually(20) {
                let held = try c.authed("GET", "/impresoras/\(barraID)/trabajos", f.waiter).json as? [[String: Any]]
                return held?.count == 1 && held?.first?["respaldo_de"] as? Int == cocinaID && held?.first?["estado"] as? String == "pendiente"
            })
            let back = try FakePrinter(port: port)
            defer { back.stop() }
            #expect(try eventually(20) { back.texts.count == 1 })
            #expect(back.texts[0].contains("1 x Tortilla") && !back.texts[0].contains("RESPALDO"), "\(back.texts.first ?? "")")
            let mine = try #require(try c.authed("GET", "/impresoras/\(cocinaID)/trabajos", f.waiter).json as? [[String: Any]])
            #expect(mine.count == 1 && mine.first?["estado"] as? String == "impreso" && mine.first?["respaldo_de"] is NSNull)
            #expect((try c.authed("GET", "/impresoras/\(barraID)/trabajos", f.waiter).json as? [[String: Any]])?.isEmpty == true)
            barra.set(.ready)
            Thread.sleep(forTimeInterval: 0.5)
            #expect(barra.texts.isEmpty && back.texts.count == 1, "printed once, on its own printer")
        }
    }

    @Test func theRoutesRefuseAsTheContractSays() throws {
        let p1 = try FakePrinter()
        defer { p1.stop() }
        try withPrinting { f, _ in
            let c = f.c
            let id = try f.printer("Cocina", p1)
            for (body, field) in [(#"{"host": "127.0.0.1"}"#, "nombre"), (#"{"nombre": "X"}"#, "host"), (#"{"nombre": "X", "host": "bad host!"}"#, "host"),
                                  (#"{"nombre": "X", "host": "10.0.0.9", "puerto": 70000}"#, "puerto"), (#"{"nombre": "X", "host": "10.0.0.9", "columnas": 80}"#, "columnas"),
                                  (#"{"nombre": "X", "host": "10.0.0.9", "codigo_pagina": "cp437"}"#, "codigo_pagina"),
                                  (#"{"nombre": "X", "host": "10.0.0.9", "qr": "raster"}"#, "qr"), (#"{"nombre": "X", "host": "10.0.0.9", "respaldo_id": 999}"#, "respaldo_id"),
                                  (#"{"nombre": "", "host": "10.0.0.9"}"#, "nombre")] {
                let r = try c.postJSON("/impresoras", body, token: f.boss)
                #expect(r.status == 422 && r.errorField == field, "\(body): \(r.text)")
            }
            #expect(try c.postJSON("/impresoras", #"{"nombre": "cocina", "host": "10.0.0.9"}"#, token: f.boss).errorCode == "impresora_duplicada")
            #expect(try c.postJSON("/impresoras", #"{"nombre": "Bar", "host": "barra.local"}"#, token: f.waiter).status == 403)
            let custom = try c.postJSON("/impresoras", #"{"nombre": "Bar", "host": "fe80::1", "codigo_pagina": {"nombre": "wpc1252", "n": 45}, "qr": "imagen"}"#, token: f.boss)
            #expect(custom.status == 201 && json(custom)["codigo_pagina"] as? String == "wpc1252" && json(custom)["qr"] as? String == "imagen")
            let bar = try #require(json(custom)["id"] as? Int)
            #expect(try c.postJSON("/estaciones", #"{"nombre": "S", "impresora_id": 999}"#, token: f.boss).errorField == "impresora_id")
            #expect(try c.postJSON("/estaciones", #"{"nombre": "A", "impresora_id": \#(id), "categorias": ["Entrantes"], "por_defecto": true}"#, token: f.boss).status == 201)
            #expect(try c.postJSON("/estaciones", #"{"nombre": "B", "impresora_id": \#(bar), "por_defecto": true}"#, token: f.boss).errorCode == "ya_hay_estacion_por_defecto")
            let clash = try c.postJSON("/estaciones", #"{"nombre": "B", "impresora_id": \#(bar), "categorias": ["Postres", "Entrantes"]}"#, token: f.boss)
            #expect(clash.status == 409 && clash.errorCode == "categoria_en_otra_estacion" && clash.errorField == "categorias")
            #expect(try c.send("DELETE", "/impresoras/\(id)", f.boss).errorCode == "impresora_en_uso")
            #expect(try c.send("DELETE", "/impresoras/999", f.boss).status == 404)
            #expect(try c.authed("GET", "/impresoras/\(id)/trabajos?estado=listo", f.waiter).errorField == "estado")
            #expect(try c.postJSON("/trabajos/999/reimprimir", "{}", token: f.waiter).status == 404)
            #expect(try c.postJSON("/cuentas/999/imprimir", #"{"impresora_id": \#(id)}"#, token: f.waiter).status == 404)
            let cuenta = try f.seat("T1")
            #expect(try c.postJSON("/cuentas/\(cuenta)/imprimir", #"{"impresora_id": 999}"#, token: f.waiter).errorField == "impresora_id")
            // A printer with a job waiting is not deleted.
            p1.set(.paperOut)
            #expect(try c.postJSON("/cuentas/\(cuenta)/imprimir", #"{"impresora_id": \#(bar)}"#, token: f.waiter).status == 201)
            #expect(try c.send("DELETE", "/impresoras/\(bar)", f.boss).errorCode == "impresora_con_trabajos")
            // The test page; an unknown printer in the path is 404.
            #expect(try c.postJSON("/impresoras/\(id)/prueba", "{}", token: f.boss).status == 201)
            #expect(try c.postJSON("/impresoras/999/prueba", "{}", token: f.boss).status == 404)
        }
    }
}

enum FakePrinterBytes {
    static func contains(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }
}
