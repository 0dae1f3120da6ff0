import ComandaCore
import Foundation
import GRDB

/// Each table's own link (`/m/{token}`): the token is `ID-SECRET` like the
/// guests' waitlist links (128 random bits), kept with its SHA-256; a
/// guest's request finds the table by the id and compares the hash in
/// constant time. Only the manager's answers carry a token.
extension AppDatabase {
    /// A link's write; `changes`: what its result changed (announced once committed).
    private func linkWrite<T>(changes: @escaping @Sendable (T) -> [Change], _ body: @escaping @Sendable (Database) throws -> T)
        -> PendingWrite<T> {
        PendingWrite(self, mapError: Self.linkError, changes: changes, body)
    }

    @Sendable private static func linkError(_ error: any Error) -> any Error {
        if let known = error as? CuentaError { return known }
        if let known = error as? MesaError { return known }
        return StoreError(error)
    }

    /// Every table's link in service, by table id (the manager's floor).
    public func enlaces() throws(StoreError) -> [Int64: String] {
        try read { db in
            var all: [Int64: String] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, enlace FROM mesa WHERE retirada IS NULL")) {
                if let token = row["enlace"] as String? { all[row["id"]] = token }
            }
            return all
        }
    }

    /// One table's link; nil if the table is unknown or retired.
    public func enlace(mesaID: Int64) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT enlace FROM mesa WHERE id = ? AND retirada IS NULL"), arguments: [mesaID])
        }
    }

    /// A new link for the table (the old one is dead from this commit on): the table and its new token.
    public func regenerateEnlace(mesaID: Int64) -> PendingWrite<(Mesa, String)> {
        linkWrite(changes: { _ in [.enlace(mesaID: mesaID)] }) { db in
            guard let mesa = try Self.mesa(db, id: mesaID) else { throw MesaError.notFound }
            return (mesa, try Self.newEnlace(db, mesaID: mesaID))
        }
    }

    /// The table (in service) whose link is `token`; nil for any other text.
    public func mesa(enlace token: String) throws(StoreError) -> Mesa? {
        try read { db in try Self.mesa(db, enlace: token) }
    }

    /// A guest's line from the table's link: on the table's open check, by
    /// the waiter's rules, `curso` 1, `origen: cliente`; refused while
    /// nobody is seated, and when the link already has its maximum of lines
    /// waiting for the waiter. The link is checked again in the transaction.
    public func addLineaCliente(enlace token: String, platoID: Int64, cantidad: Int, notas: String,
                                opciones: [Int64]) -> PendingWrite<LineaCuenta> {
        linkWrite(changes: { [.cuenta(id: $0.cuentaID, comandas: [])] }) { db in
            let cuentaID = try Self.seatedCheck(db, enlace: token)
            let waiting = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM linea_cuenta WHERE cuenta_id = ? AND origen = 'cliente' AND estado = 'pendiente'
                """), arguments: [cuentaID]) ?? 0
            guard waiting < CuentaRules.maxLineasCliente else { throw CuentaError.demasiadasLineas }
            return try Self.insertLinea(db, cuentaID: cuentaID, platoID: platoID, cantidad: cantidad, curso: 1, notas: notas,
                                        opciones: opciones, origen: .cliente)
        }
    }

    /// The guests ask for the bill: `pide_cuenta` on the table's open check.
    /// Its id, and whether this changed it: asking again changes nothing and
    /// announces nothing (a guest's phone tapping on is no waiter's event).
    public func pideCuenta(enlace token: String) -> PendingWrite<(cuentaID: Int64, cambiada: Bool)> {
        linkWrite(changes: { $0.cambiada ? [.cuenta(id: $0.cuentaID, comandas: [])] : [] }) { db in
            let cuentaID = try Self.seatedCheck(db, enlace: token)
            try db.cachedStatement(sql: "UPDATE cuenta SET pide_cuenta = 1 WHERE id = ? AND pide_cuenta = 0").execute(arguments: [cuentaID])
            return (cuentaID, db.changesCount == 1)
        }
    }

    /// The tables that show the check `cuentaID` now (the one seated and
    /// those joined to it): whose guests' pages hear of its changes.
    public func mesasDeCuenta(_ cuentaID: Int64) throws(StoreError) -> [Int64] {
        try read { db in
            try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM mesa WHERE cuenta_id = ? AND retirada IS NULL"), arguments: [cuentaID])
        }
    }

    // MARK: - Inside transactions

    /// Gives the table a new link and returns it.
    @discardableResult
    static func newEnlace(_ db: Database, mesaID: Int64) throws -> String {
        let token = GuestToken.make(id: mesaID)
        try db.cachedStatement(sql: "UPDATE mesa SET enlace = ?, enlace_hash = ? WHERE id = ?")
            .execute(arguments: [token, Data(GuestToken.hash(token)), mesaID])
        return token
    }

    static func mesa(_ db: Database, enlace token: String) throws -> Mesa? {
        // Only links with their table's id exist (no table link predates them).
        guard case .keyed(let id) = GuestToken.form(token),
              let kept = try Data.fetchOne(db.cachedStatement(sql: "SELECT enlace_hash FROM mesa WHERE id = ? AND retirada IS NULL"),
                                           arguments: [id]),
              ConstantTime.equals(Array(kept), GuestToken.hash(token)) else { return nil }
        return try mesa(db, id: id)
    }

    /// The open check of the link's table: else 404 (no such link), 409
    /// `mesa_sin_cuenta` (nobody seated) or `cuenta_cerrada` (paid).
    private static func seatedCheck(_ db: Database, enlace token: String) throws -> Int64 {
        guard let mesa = try mesa(db, enlace: token) else { throw CuentaError.enlaceNotFound }
        guard mesa.estado == .ocupada, let cuentaID = mesa.cuentaID else { throw CuentaError.mesaSinCuenta }
        try checkOpen(db, id: cuentaID)
        return cuentaID
    }
}
