import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// A database a newer comanda made (a migration this one does not know) is
/// refused at start-up in one line that names both versions, and the file
/// is left byte for byte as it was.
@Suite struct UpgradeTests {
    @Test func aNewerDatabaseIsRefusedAndLeftUntouched() throws {
        let dir = try makeTemporaryFolder("comanda-newer")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/r.sqlite"
        try "jefa-de-sala-1\n".write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
        let (made, _) = try runComanda(["create-staff", "jefa", "--rol", "gerente", "--password-file", dir + "/pw", "--database", db], in: dir)
        #expect(made == 0)
        // As a newer comanda would leave it: one more migration applied, the log checkpointed into the file.
        let queue = try DatabaseQueue(path: db)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        try queue.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let (status, output) = try runComanda(["serve", "--port", "0", "--database", db], in: dir)
        #expect(status != 0)
        let lines = output.split(separator: "\n").filter { $0.contains("newer comanda") }
        #expect(lines.count == 1 && lines[0].contains("v99-from-the-future") && lines[0].contains("v29-printers"), "\(output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the file was changed")
        #expect(!FileManager.default.fileExists(atPath: db + "-wal") && !FileManager.default.fileExists(atPath: db + "-shm"), "log files left beside it")
    }
}
