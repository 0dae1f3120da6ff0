import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// The server's own backups over the real binary: copies made at start when
/// the day's was missed and on schedule, into two folders, checked; retention;
/// a failing folder reported while the other gets its copy; a damaged copy
/// never counted; restore refused over a running server, then restoring a good
/// copy that starts with every invoice and a whole chain.
@Suite(.serialized) struct BackupTests {
    static let madrid = TimeZone(identifier: "Europe/Madrid") ?? .current

    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    private func until(_ seconds: Double, _ what: String, _ condition: () throws -> Bool) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("waited \(seconds) s for \(what)")
    }

    /// A restaurant's box: a database with its manager, a company (so payments make invoices).
    private struct Box {
        let dir: String, db: String
        var env: [String: String]
        var args: [String] { ["--database", db, "--public", dir + "/Public"] }

        init(_ name: String, copias: [String: String]) throws {
            dir = try makeTemporaryFolder(name)
            db = dir + "/r.sqlite"
            try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
            try "jefa-de-sala-1\n".write(toFile: dir + "/pw", atomically: false, encoding: .utf8)
            _ = try runComanda(["create-staff", "--crear", "jefa", "--rol", "gerente", "--password-file", dir + "/pw", "--database", db], in: dir)
            env = ["COMANDA_SCRYPT_LOG_N": "10", "COMANDA_ZONA_HORARIA": "Europe/Madrid", "COMANDA_EMPRESA_NIF": "B12345674",
                   "COMANDA_EMPRESA_RAZON_SOCIAL": "Casa Pepe S.L."]
            for (k, v) in copias { env[k] = v }
        }
    }

    private func session(_ server: ServerProcess) throws -> (TestClient, String) {
        let c = try TestClient(port: server.port)
        let token = try #require(json(try c.postJSON("/sesiones", #"{"login": "jefa", "password": "jefa-de-sala-1"}"#))["token"] as? String)
        return (c, token)
    }

    /// A table seated, a dish sent and paid: one invoice and its record.
    private func pay(_ c: TestClient, _ token: String, _ mesa: String) throws -> String {
        let plato = try #require((try c.request("GET", "/platos").json as? [[String: Any]])?.first?["id"] as? Int)
        let m = try #require(json(try c.postJSON("/mesas", #"{"nombre": "\#(mesa)", "plazas": 4}"#, token: token))["id"] as? Int)
        let cuenta = try #require(json(try c.postJSON("/mesas/\(m)/sentar", #"{"comensales": 2}"#, token: token))["id"] as? Int)
        _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(plato), "cantidad": 2}"#, token: token)
        _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: token)
        let r = try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: token)
        return try #require((json(r)["factura"] as? [String: Any])?["numero"] as? String, "\(r.status) \(r.text)")
    }

    private func copias(_ c: TestClient, _ token: String) throws -> [String: Any] { json(try c.authed("GET", "/copias", token)) }

    private func ours(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { Copias.leer($0) != nil }.sorted()
    }

    /// `HH:MM:SS` in Madrid, `seconds` from now.
    private func hora(in seconds: Int) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = Self.madrid
        let c = cal.dateComponents([.hour, .minute, .second], from: Date().addingTimeInterval(TimeInterval(seconds)))
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    @Test func copiesAtStartWhenMissedThenOnScheduleIntoTwoFoldersEachChecked() throws {
        let a = try makeTemporaryFolder("copias-a"), b = try makeTemporaryFolder("copias-b")
        let box = try Box("comanda-copias", copias: ["COMANDA_COPIAS_CARPETAS": a + ":" + b, "COMANDA_COPIAS_HORA": hora(in: 6)])
        defer { for d in [a, b, box.dir] { try? FileManager.default.removeItem(atPath: d) } }
        let server = try ServerProcess(arguments: box.args, directory: box.dir, environment: box.env)
        defer { server.stop() }
        let (c, token) = try session(server)
        // No copy yet and the last hour due was yesterday's: one made at start, in each folder.
        try until(10, "the copy missed made at start") { ours(a).count == 1 && ours(b).count == 1 }
        let numero = try pay(c, token, "T1")
        // Then at the hour, another in each (the invoice in it).
        try until(20, "the copy at the hour") { ours(a).count == 2 && ours(b).count == 2 }
        for folder in [a, b] {
            let newest = try #require(ours(folder).last)
            let resumen = try AppDatabase.comprobarCopia(folder + "/" + newest, zone: Self.madrid)
            #expect(resumen.facturas == 1 && resumen.registros == 1 && resumen.ultimaFactura == numero)
            // Its owner's alone (the staff's hashes, the books), and no temporary file left.
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: folder + "/" + newest)[.posixPermissions] as? Int)
            #expect(mode == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { Copias.leer($0) != nil }, "\(folder)")
        }
        // One more by hand (before an upgrade, say): the day's newest and the month's first are kept, the one between goes.
        let before = ours(a)
        Thread.sleep(forTimeInterval: 1)
        let asked = try c.authed("POST", "/copias", token)
        #expect(asked.status == 202 && json(asked)["copiando"] as? Bool == true, "\(asked.text)")
        try until(10, "the copy asked for") { try ours(a).count == 2 && ours(a) != before && json(c.authed("GET", "/copias", token))["copiando"] as? Bool == false }
        #expect(ours(a).first == before.first && ours(a).last != before.last)
        let estado = try copias(c, token)
        let carpetas = try #require(estado["carpetas"] as? [[String: Any]])
        #expect(carpetas.count == 2 && carpetas.allSatisfy { $0["error"] is NSNull })
        #expect(carpetas.allSatisfy { ($0["ultima"] as? [String: Any])?["facturas"] as? Int == 1 })
        // Both folders are on the database's own disk here: the owner is told.
        #expect(carpetas.allSatisfy { $0["mismo_disco"] as? Bool == true })
        #expect((estado["aviso"] as? String)?.contains("mismo disco") == true, "\(estado)")
        let metrics = try c.request("GET", "/metrics").text
        let age = try #require(metrics.split(separator: "\n").first { $0.hasPrefix("comanda_backup_age_seconds ") })
        #expect((Double(age.split(separator: " ")[1]) ?? -1) >= 0 && (Double(age.split(separator: " ")[1]) ?? 99) < 60, "\(age)")
        #expect(server.log().contains("every copy folder is on the database's own disk"))
    }

    @Test func aFullOrReadOnlyFolderIsReportedWhileTheOtherGetsItsCopy() throws {
        let good = try makeTemporaryFolder("copias-good"), full = try makeTemporaryFolder("copias-full"), ro = try makeTemporaryFolder("copias-ro")
        let missing = good + "-not-plugged-in"
        // Small disks of their own: one too small for a copy, one read-only (the tests run as root, who ignores permissions).
        let mounted = mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", full) && mount("-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro)
        defer {
            _ = mount("-l", full, umount: true)
            _ = mount("-l", ro, umount: true)
            for d in [good, full, ro] { try? FileManager.default.removeItem(atPath: d) }
        }
        let folders = mounted ? [good, full, ro, missing] : [good, missing]
        let box = try Box("comanda-copias-bad", copias: ["COMANDA_COPIAS_CARPETAS": folders.joined(separator: ":")])
        defer { try? FileManager.default.removeItem(atPath: box.dir) }
        let server = try ServerProcess(arguments: box.args, directory: box.dir, environment: box.env)
        defer { server.stop() }
        let (c, token) = try session(server)
        try until(10, "the copies tried") {
            let carpetas = (try copias(c, token)["carpetas"] as? [[String: Any]]) ?? []
            return carpetas.filter { !($0["error"] is NSNull) }.count == folders.count - 1
        }
        let estado = try copias(c, token)
        let carpetas = try #require(estado["carpetas"] as? [[String: Any]])
        func error(_ folder: String) -> String? {
            (carpetas.first { $0["carpeta"] as? String == folder }?["error"] as? [String: Any])?["mensaje"] as? String
        }
        #expect(ours(good).count == 1 && error(good) == nil)
        #expect(error(missing)?.contains("no existe") == true)
        if mounted {
            #expect(error(full)?.contains("lleno") == true, "\(carpetas)")
            #expect(error(ro)?.contains("No se puede escribir") == true, "\(carpetas)")
            // Nothing half-written left on the full disk.
            #expect(try FileManager.default.contentsOfDirectory(atPath: full).isEmpty)
        } else {
            Issue.record("tmpfs could not be mounted here: only the missing folder was tried")
        }
        #expect((estado["aviso"] as? String)?.contains("falló") == true)
        #expect(try c.request("GET", "/metrics").text.contains("comanda_backup_folders_failing \(folders.count - 1).0"))
        #expect(server.log().contains("backup into \(missing) failed"))
    }

    @Test func retentionKeepsEachOfTheLastDaysAndTheFirstOfEachMonthNothingElse() throws {
        let a = try makeTemporaryFolder("copias-keep")
        let box = try Box("comanda-copias-keep", copias: ["COMANDA_COPIAS_CARPETAS": a, "COMANDA_COPIAS_DIARIAS": "30", "COMANDA_COPIAS_MENSUALES": "3"])
        defer { for d in [a, box.dir] { try? FileManager.default.removeItem(atPath: d) } }
        // 120 days of copies (one good copy, linked under each day's name at 04:00) and a file of someone else's.
        let seed = box.dir + "/seed.sqlite"
        #expect(try runComanda(["backup", seed, "--database", box.db], in: box.dir).0 == 0)
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = Self.madrid
        let today = cal.startOfDay(for: Date())
        var planted: [(name: String, day: Date)] = []
        for back in 1...120 {
            let day = try #require(cal.date(byAdding: .day, value: -back, to: today))
            let name = Copias.nombre(Int64(day.timeIntervalSince1970) + 4 * 3600, zone: Self.madrid)
            #expect(link(seed, a + "/" + name) == 0)
            planted.append((name, day))
        }
        try Data("mine".utf8).write(to: URL(fileURLWithPath: a + "/notas-del-dueño.txt"))
        let server = try ServerProcess(arguments: box.args, directory: box.dir, environment: box.env)
        defer { server.stop() }
        // The newest planted is yesterday's, older than the hour due today (or it is before 04:00 and yesterday's
        // was due: planted at 04:00, it counts; then nothing is made). Either way, retention is what is left.
        let made = Copias.ultimaProgramada(Int64(Date().timeIntervalSince1970), hora: .porDefecto, zone: Self.madrid)
            > Int64(planted[0].day.timeIntervalSince1970) + 4 * 3600
        if made {
            try until(10, "today's copy and the old ones thinned") { ours(a).count < 120 }
        } else {
            Thread.sleep(forTimeInterval: 2)
        }
        // Expected, counted here by hand: the days within 30 (today's the first), the first of each of the last 3 months.
        var expected = Set<String>()
        for p in planted where (cal.dateComponents([.day], from: p.day, to: today).day ?? 999) < 30 { expected.insert(p.name) }
        for back in 0..<3 {
            let month = try #require(cal.date(byAdding: .month, value: -back, to: cal.date(from: cal.dateComponents([.year, .month], from: today)) ?? today))
            let first = planted.filter { cal.isDate($0.day, equalTo: month, toGranularity: .month) }.min { $0.day < $1.day }
            if let first { expected.insert(first.name) }
        }
        let left = Set(ours(a))
        if made {
            let todays = left.filter { Copias.leer($0)?.dia == Copias.dia(Int64(Date().timeIntervalSince1970), zone: Self.madrid) }
            #expect(todays.count == 1)
            #expect(left.subtracting(todays) == expected, "kept \(left.subtracting(todays).sorted()) expected \(expected.sorted())")
        } else {
            #expect(left.count == 120, "nothing is removed before a new copy counts")
        }
        #expect(FileManager.default.fileExists(atPath: a + "/notas-del-dueño.txt"))
    }

    @Test func aDamagedCopyNeverCountsAndRestoreBringsBackAGoodOne() throws {
        let a = try makeTemporaryFolder("copias-restore")
        let box = try Box("comanda-restore", copias: ["COMANDA_COPIAS_CARPETAS": a, "COMANDA_COPIAS_HORA": "00:00"])
        defer { for d in [a, box.dir] { try? FileManager.default.removeItem(atPath: d) } }
        // A copy named as made today, after the hour due, that is not a database: were it counted, no copy would be made.
        let t = Int64(Date().timeIntervalSince1970)
        let midnight = try #require(Copias.Hora("00:00"))
        let damaged = Copias.nombre(Copias.ultimaProgramada(t, hora: midnight, zone: Self.madrid) + 1, zone: Self.madrid)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: a + "/" + damaged))
        var server = try ServerProcess(arguments: box.args, directory: box.dir, environment: box.env)
        var (c, token) = try session(server)
        let first = try pay(c, token, "T1")
        let second = try pay(c, token, "T2")
        // The copy at start holds whatever was paid by then; one more now, by the CLI, with both.
        try until(10, "a good copy made despite the damaged one") {
            ((try copias(c, token)["carpetas"] as? [[String: Any]])?.first?["ultima"] as? [String: Any])?["archivo"] as? String != nil
        }
        let ultima = try #require(((try copias(c, token)["carpetas"] as? [[String: Any]])?.first?["ultima"] as? [String: Any])?["archivo"] as? String)
        #expect(ultima != damaged)
        #expect(server.log().contains("is damaged and does not count"))
        let copy = box.dir + "/antes.sqlite"
        #expect(try runComanda(["backup", copy, "--database", box.db], in: box.dir).0 == 0)
        // Restoring over the running server: refused, nothing touched.
        let (refused, why) = try runComanda(["restaurar", copy, "--database", box.db], in: box.dir)
        #expect(refused != 0 && why.contains("está sirviendo") && why.contains("no se ha cambiado nada"), "\(why)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.dir).allSatisfy { !$0.contains("antes-de-restaurar") })
        // A second server on the same file: refused too.
        #expect(try runComanda(["serve", "--port", "0", "--database", box.db], in: box.dir).1.contains("otro comanda está sirviendo"))
        // After the copy, an invoice the restore will not bring back.
        let third = try pay(c, token, "T3")
        server.stop()
        // A damaged file: refused before anything is touched.
        let (bad, badWhy) = try runComanda(["restaurar", a + "/" + damaged, "--database", box.db], in: box.dir)
        #expect(bad != 0 && badWhy.contains("no es una base de datos SQLite"), "\(badWhy)")
        let (status, output) = try runComanda(["restaurar", copy, "--database", box.db], in: box.dir)
        #expect(status == 0, "\(output)")
        #expect(output.contains("2 facturas, 2 registros de facturación") && output.contains("la última factura \(second)"), "\(output)")
        let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: box.dir).first { $0.hasPrefix("r.sqlite.antes-de-restaurar-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(output.contains(aside))
        // The file kept aside still holds the third invoice (with its -wal beside it).
        let kept = try AppDatabase.open(path: box.dir + "/" + aside)
        #expect(try kept.verificarCadena().count == 3)
        let (checked, chain) = try runComanda(["verifactu", "verificar", "--database", box.db], in: box.dir)
        #expect(checked == 0 && chain.contains("2 registros"), "\(chain)")
        server = try ServerProcess(arguments: box.args, directory: box.dir, environment: box.env)
        defer { server.stop() }
        (c, token) = try session(server)
        let facturas = try #require(try c.authed("GET", "/facturas", token).json as? [[String: Any]])
        #expect(Set(facturas.compactMap { $0["numero"] as? String }) == [first, second], "\(facturas)")
        #expect(!facturas.contains { $0["numero"] as? String == third })
    }
}

/// Runs mount(8) (or umount with `umount`), true if it succeeded.
private func mount(_ arguments: String..., umount: Bool = false) -> Bool {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: umount ? "/bin/umount" : "/bin/mount")
    p.arguments = arguments
    p.standardError = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
}
