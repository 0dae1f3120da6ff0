import ComandaCore
@testable import ComandaStore
import GRDB
import Testing

/// `FastStatement`, SQLite's own API under the hottest writes: what it binds
/// is what GRDB would have bound, a failure is GRDB's error, and the cached
/// statement is left for GRDB to run again.
@Suite struct FastStatementTests {
    @Test func theOpenStateComparedInPlaceIsTheOpenState() {
        #expect("\(AppDatabase.abierta)" == EstadoCuenta.abierta.rawValue)
    }

    private func queue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, texto TEXT, n INTEGER CHECK (n >= 0))")
        }
        return queue
    }

    private static let insert = "INSERT INTO t (texto, n) VALUES (?, ?)"

    @Test func textAndNumbersAreBoundAsGRDBWould() throws {
        let names = ["", "Pulpo a la gallega", "Щи по-домашнему", "麻婆豆腐", "🍷 crianza", "O'Brien \"el de la 5\""]
        try queue().write { db in
            for (i, name) in names.enumerated() {
                try FastStatement.run(db, Self.insert) { s in
                    try s.bind(1, name)
                    try s.bind(2, i % 2 == 0 ? Int64(i) : nil)
                    try s.execute()
                }
            }
            let rows = try Row.fetchAll(db, sql: "SELECT texto, n, typeof(texto) FROM t ORDER BY id")
            #expect(rows.map { $0[0] as String } == names)
            #expect(rows.map { $0[1] as Int64? } == names.indices.map { $0 % 2 == 0 ? Int64($0) : nil })
            // The empty name is text, not NULL.
            #expect(rows.allSatisfy { $0[2] as String == "text" })
            // Read back through it, column by column; GRDB reading with the same
            // statement in between (and leaving it stepped) changes nothing.
            let select = "SELECT texto, n FROM t WHERE id = ?"
            for _ in 0..<2 {
                let read = try FastStatement.run(db, select) { s -> (String, Int64?, Bool)? in
                    try s.bind(1, Int64(4))
                    return try s.step() ? (s.string(0), s.int64OrNil(1), s.text(0, is: "麻婆豆腐")) : nil
                }
                #expect(read?.0 == "麻婆豆腐" && read?.1 == nil && read?.2 == true)
                #expect(try String.fetchOne(db.cachedStatement(sql: select), arguments: [2]) == "Pulpo a la gallega")
            }
        }
    }

    @Test func aFailureIsGRDBsErrorAndTheStatementIsLeftReset() throws {
        try queue().write { db in
            do {
                try FastStatement.run(db, Self.insert) { s in
                    try s.bind(1, "bajo cero")
                    try s.bind(2, -1)
                    try s.execute()
                }
                Issue.record("a broken CHECK was written")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.sql == Self.insert)
            }
            // GRDB runs the same cached statement with its own arguments (the failed bindings cleared).
            try db.cachedStatement(sql: Self.insert).execute(arguments: ["después", 2])
            try FastStatement.run(db, Self.insert) { s in
                try s.bind(1, "sin número")
                try s.execute()
            }
            let rows = try Row.fetchAll(db, sql: "SELECT texto, n FROM t ORDER BY id").map { ($0[0] as String?, $0[1] as Int64?) }
            #expect(rows.map(\.0) == ["después", "sin número"])
            #expect(rows.map(\.1) == [2, nil])
        }
    }
}
