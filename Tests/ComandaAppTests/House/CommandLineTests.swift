import ComandaTestSupport
import Foundation
import Testing

/// Every command but `serve` refuses a database that is not there (unless
/// told `--crear`): run in the wrong folder, none makes an empty one and
/// reports success on it; they say
/// where they looked, exit 1, and leave nothing behind.
@Suite struct CommandLineTests {
    @Test func everyCommandButServeRefusesAMissingDatabase() throws {
        let dir = try makeTemporaryFolder("comanda-nodb")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let menu = try makeTemporaryFolder("comanda-nodb-menu") + "/platos.json"
        try #"[{"nombre": "Flan", "descripcion": "Casero", "precio": 4, "tipo": "Postres"}]"#.write(toFile: menu, atomically: false, encoding: .utf8)
        try "jefa-de-sala-1\n".write(toFile: menu + ".pw", atomically: false, encoding: .utf8)
        let commands = [["backup", dir + "/copia.sqlite"], ["verifactu", "verificar"],
                        ["create-staff", "jefa", "--rol", "gerente", "--password-file", menu + ".pw"],
                        ["create-host", "ana", "--password-file", menu + ".pw"], ["import-platos", menu]]
        for args in commands {
            let (status, output) = try runComanda(args, in: dir)
            #expect(status == 1 && output.contains("no hay ninguna base de datos en ") && output.contains("comanda.sqlite"), "\(args): \(output)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "files were made")
        // Asked on purpose: the first manager before the first start, said on the terminal.
        let (made, said) = try runComanda(["create-staff", "--crear", "jefa", "--rol", "gerente", "--password-file", menu + ".pw"], in: dir)
        #expect(made == 0 && said.contains("se ha creado una nueva") && said.contains("creado jefa"), "\(said)")
        #expect(try runComanda(["import-platos", menu], in: dir).0 == 0, "the database is there now")
    }

    /// `verificar` reads a copy as it is: read-only, not migrated, nothing left beside it; a file
    /// that is not a database is said in plain words.
    @Test func verificarLeavesACopyAsItWas() throws {
        let dir = try makeTemporaryFolder("comanda-verificar")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "jefa-de-sala-1\n".write(toFile: dir + "/pw", atomically: false, encoding: .utf8)
        #expect(try runComanda(["create-staff", "--crear", "jefa", "--rol", "gerente", "--password-file", dir + "/pw", "--database", dir + "/r.sqlite"], in: dir).0 == 0)
        try FileManager.default.createDirectory(atPath: dir + "/copias", withIntermediateDirectories: true)
        #expect(try runComanda(["backup", dir + "/copias/copia.sqlite", "--database", dir + "/r.sqlite"], in: dir).0 == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/copias/copia.sqlite"))
        let (status, output) = try runComanda(["verifactu", "verificar", "--database", dir + "/copias/copia.sqlite"], in: dir)
        #expect(status == 0 && output.contains("0 registros: cadena íntegra"), "\(output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/copias") == ["copia.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/copias/copia.sqlite")) == before)
        try Data("no soy una base de datos".utf8).write(to: URL(fileURLWithPath: dir + "/copias/mala.sqlite"))
        let (bad, why) = try runComanda(["verifactu", "verificar", "--database", dir + "/copias/mala.sqlite"], in: dir)
        #expect(bad == 1 && why.contains("no es una base de datos SQLite") && !why.contains("SELECT"), "\(why)")
    }

    /// The start-up log says what the restaurant set, in its zone's time.
    @Test func theStartEchoesTheSettingsThatMatter() throws {
        let dir = try makeTemporaryFolder("comanda-echo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServerProcess(arguments: ["--database", dir + "/r.sqlite"], directory: dir,
                                       environment: ["COMANDA_ZONA_HORARIA": "Europe/Madrid", "COMANDA_NOMBRE_RESTAURANTE": "Casa Pepe",
                                                     "COMANDA_EMPRESA_NIF": "B12345674", "COMANDA_EMPRESA_RAZON_SOCIAL": "Casa Pepe S.L.",
                                                     "COMANDA_URL_PUBLICA": "https://casa-pepe.es", "COMANDA_COPIAS_CARPETAS": dir + "/usb"])
        server.stop()
        let log = server.log()
        #expect(log.contains(#"restaurant "Casa Pepe", zone Europe/Madrid"#) && log.contains("company B12345674"), "\(log)")
        #expect(log.contains("start with https://casa-pepe.es") && log.contains("backups into \(dir)/usb daily at 04:00"), "\(log)")
        #expect(log.contains("printers: none (add them on /gestion, Impresoras)"), "\(log)")
        // The log's timestamps carry the restaurant's offset (Madrid: +0100 in winter, +0200 in summer), not UTC's.
        #expect(log.split(separator: "\n").allSatisfy { $0.isEmpty || $0.contains("+0100 ") || $0.contains("+0200 ") }, "\(log)")
    }
}
