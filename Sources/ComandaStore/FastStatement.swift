import GRDB
import GRDBSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One of the writer's cached statements run through SQLite's own API:
/// reset first (GRDB leaves a statement as its last step left it, and a
/// statement not reset refuses new bindings), bound by position, stepped,
/// its columns read by position, and reset with its bindings cleared when
/// `run` returns (GRDB binds again whatever it runs next on it; the same SQL
/// may be GRDB's elsewhere). For the hottest writes, a check's line and a
/// send, where GRDB's argument arrays, rows and cursors cost more than
/// SQLite's own work (docs/PERFORMANCE.md; docs/bench/HISTORY.md, "Table service a sixth time").
struct FastStatement: ColumnsByPosition {
    private let statement: SQLiteStatement
    private let db: Database
    private let sql: String

    /// Runs `body` with the cached statement of `sql` (prepared once, by GRDB's cache).
    static func run<T>(_ db: Database, _ sql: String, _ body: (FastStatement) throws -> T) throws -> T {
        let cached = try db.cachedStatement(sql: sql)
        // Held for the run: GRDB finalizes a statement its cache lets go.
        return try withExtendedLifetime(cached) {
            let statement = cached.sqliteStatement
            // Its last step's outcome, if it failed, is not this run's.
            sqlite3_reset(statement)
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            return try body(FastStatement(statement: statement, db: db, sql: sql))
        }
    }

    func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(statement, index, value))
    }

    func bind(_ index: Int32, _ value: Int) throws {
        try check(sqlite3_bind_int64(statement, index, Int64(value)))
    }

    /// Copied by SQLite (the string need not outlive the call).
    func bind(_ index: Int32, _ value: String) throws {
        var value = value
        let code = value.withUTF8 { bytes in
            guard let base = bytes.baseAddress else {
                // No address for an empty string: a NULL pointer would bind NULL, not "".
                return sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
            // Past 2 GiB SQLite's own limit refuses it (no request carries that much).
            guard let length = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                sqlite3_bind_text(statement, index, chars, length, Self.transient)
            }
        }
        try check(code)
    }

    /// UTF-8 text as bytes (copied by SQLite).
    func bind(_ index: Int32, utf8 bytes: [UInt8]) throws {
        let code = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            // No address for no bytes: a NULL pointer would bind NULL, not "".
            guard let base = buffer.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, Self.transient) }
            // Past 2 GiB SQLite's own limit refuses it.
            guard let length = Int32(exactly: buffer.count) else { return SQLITE_TOOBIG }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { sqlite3_bind_text(statement, index, $0, length, Self.transient) }
        }
        try check(code)
    }

    func bind(_ index: Int32, _ value: Int64?) throws {
        guard let value else { return try check(sqlite3_bind_null(statement, index)) }
        try bind(index, value)
    }

    /// One step: true with a row to read, false once done; a failure (a
    /// constraint, the disk) thrown as GRDB's `DatabaseError`.
    func step() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error()
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw error() }
    }

    private func error() -> DatabaseError {
        let connection = db.sqliteConnection
        return DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                             message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }

    /// Steps to the end (a write without rows to read).
    func execute() throws {
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func int64OrNil(_ column: Int32) -> Int64? {
        isNull(column) ? nil : int64(column)
    }

    /// The column as text ("" for NULL).
    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Whether the column is the text `value` (no string made).
    func text(_ column: Int32, is value: StaticString) -> Bool {
        guard let text = sqlite3_column_text(statement, column) else { return false }
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count == value.utf8CodeUnitCount else { return false }
        return memcmp(text, value.utf8Start, count) == 0
    }

    /// SQLite copies the bound bytes (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}

/// Columns of the current row read by position: GRDB's `Row`, or a
/// `FastStatement` stepped onto one (one reader of a table's columns for both).
protocol ColumnsByPosition {
    func int64(_ column: Int32) -> Int64
    func int64OrNil(_ column: Int32) -> Int64?
    /// The column as text ("" for NULL).
    func string(_ column: Int32) -> String
}

extension ColumnsByPosition {
    func int(_ column: Int32) -> Int { Int(int64(column)) }

    // By a named column (`LineaColumn.cantidad`): its position in the SELECT it names.
    func int64<Column: RawRepresentable<Int32>>(_ column: Column) -> Int64 { int64(column.rawValue) }
    func int64OrNil<Column: RawRepresentable<Int32>>(_ column: Column) -> Int64? { int64OrNil(column.rawValue) }
    func int<Column: RawRepresentable<Int32>>(_ column: Column) -> Int { int(column.rawValue) }
    func string<Column: RawRepresentable<Int32>>(_ column: Column) -> String { string(column.rawValue) }
}

/// The columns of a line as `lineaColumns` selects them, by position: the
/// list in the SQL is made from these cases, so the two cannot drift apart.
enum LineaColumn: Int32, CaseIterable {
    case id, cuentaID, platoID, nombre, precioUnitario, cantidad, opciones, notas, curso, estado, origen, comandaID, iva
    case descuentoPorcentaje, descuentoImporte, descuentoMotivo, descuentoGerenteID, descuentoGerente

    /// The column's name in `linea_cuenta`.
    var sql: String {
        switch self {
        case .cuentaID: "cuenta_id"
        case .platoID: "plato_id"
        case .precioUnitario: "precio_unitario"
        case .comandaID: "comanda_id"
        case .descuentoPorcentaje: "descuento_porcentaje"
        case .descuentoImporte: "descuento_importe"
        case .descuentoMotivo: "descuento_motivo"
        case .descuentoGerenteID: "descuento_gerente_id"
        case .descuentoGerente: "descuento_gerente"
        default: String(describing: self)
        }
    }

    /// Every column, in position order, for a SELECT.
    static let list = allCases.map(\.sql).joined(separator: ", ")
}

/// The columns of a comanda as `comandaColumns` selects them (comanda `c`,
/// its waiter `u`), by position.
enum ComandaColumn: Int32, CaseIterable {
    case id, cuentaID, mesa, curso, estado, enviada, marchada, preparada, camareroID, camareroNombre

    var sql: String {
        switch self {
        case .cuentaID: "c.cuenta_id"
        case .camareroID: "u.id AS camarero_id"
        case .camareroNombre: "u.nombre AS camarero_nombre"
        default: "c." + String(describing: self)
        }
    }

    static let list = allCases.map(\.sql).joined(separator: ", ")
}

extension Row: ColumnsByPosition {
    func int64(_ column: Int32) -> Int64 { self[Int(column)] }
    func int64OrNil(_ column: Int32) -> Int64? { self[Int(column)] }
    func string(_ column: Int32) -> String { self[Int(column)] ?? "" }
}
