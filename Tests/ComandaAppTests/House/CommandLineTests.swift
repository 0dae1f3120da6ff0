import ComandaTestSupport
import Foundation
import Testing

/// The owner's commands that read what is there never make an empty
/// database and report success on it: run where there is none, they say
/// where they looked, exit 1, and leave nothing behind.
@Suite struct CommandLineTests {
    @Test func backupAndVerificarWhereThereIsNoDatabase() throws {
        let dir = try makeTemporaryFolder("comanda-nodb")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for args in [["backup", dir + "/copia.sqlite"], ["verifactu", "verificar"]] {
            let (status, output) = try runComanda(args, in: dir)
            #expect(status == 1 && output.contains("no database at ") && output.contains("comanda.sqlite"), "\(args): \(output)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "files were made")
    }
}
