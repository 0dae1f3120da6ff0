import ComandaCore
import ComandaStore
import Foundation
import Testing

/// Session lookups are served from memory once read; these check that what
/// the cache answers is what the database says, when it matters.
@Suite struct SessionStoreTests {
    private let hash = Array(repeating: UInt8(7), count: 32)

    private func userWithSession(_ db: AppDatabase, expiresAt: Int64 = 2_000) throws -> Usuario {
        let u = try db.createUsuario(nombre: "Ana", login: "ana", passwordHash: "x", rol: .cliente, now: 0)
        try db.createSesion(tokenHash: hash, usuarioID: u.id, now: 0, expiresAt: expiresAt)
        return u
    }

    @Test func logoutEndsACachedSessionAtOnce() throws {
        let db = try AppDatabase.inMemory()
        let u = try userWithSession(db)
        #expect(try db.usuario(tokenHash: hash, now: 10)?.id == u.id)
        #expect(try db.usuario(tokenHash: hash, now: 10)?.id == u.id)
        try db.deleteSesion(tokenHash: hash)
        #expect(try db.usuario(tokenHash: hash, now: 10) == nil)
    }

    @Test func aRoleChangeShowsAtOnce() throws {
        let db = try AppDatabase.inMemory()
        let u = try userWithSession(db)
        #expect(try db.usuario(tokenHash: hash, now: 10)?.rol == .cliente)
        try db.setRol(.anfitrion, usuarioID: u.id)
        #expect(try db.usuario(tokenHash: hash, now: 10)?.rol == .anfitrion)
    }

    @Test func expiryIsCheckedOnEveryLookup() throws {
        let db = try AppDatabase.inMemory()
        _ = try userWithSession(db, expiresAt: 100)
        #expect(try db.usuario(tokenHash: hash, now: 99) != nil)
        #expect(try db.usuario(tokenHash: hash, now: 100) == nil)
        #expect(try db.usuario(tokenHash: hash, now: 99) != nil, "expiry is a time check, not a deletion")
    }

    /// Another process (here: another connection with its own cache) deleting
    /// the session is seen within the cache's two seconds.
    @Test func aChangeFromAnotherProcessShowsWithinTwoSeconds() throws {
        let path = NSTemporaryDirectory() + "comanda-sessions-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let server = try AppDatabase.open(path: path)
        _ = try userWithSession(server)
        #expect(try server.usuario(tokenHash: hash, now: 10) != nil)
        let other = try AppDatabase.open(path: path)
        try other.deleteSesion(tokenHash: hash)
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try server.usuario(tokenHash: hash, now: 10) == nil)
    }
}
