import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaRuntime

/// The menu served from memory, and always current: every request asks the
/// database for the menu's revision (one indexed read; a trigger bumps it on
/// any change to the dishes, from this process or another such as
/// `comanda import-platos`), and the snapshot and the encoded answers are
/// rebuilt only when it moved.
final class MenuService: Sendable {
    /// An encoded answer and its tag.
    struct Encoded: Sendable {
        let body: [UInt8]
        let etag: String
    }

    private struct State {
        var revision = -1
        var menu = Menu(platos: [], firstSeen: [], configured: [])
        var answers: [String: Encoded] = [:]
        /// Photos read since the revision moved (nil: the dish has none).
        var fotos: [Int64: FotoPlato?] = [:]
    }

    fileprivate let database: AppDatabase
    private let categorias: [CategoriaConfig]
    private let state = Locked(State())
    /// Distinct answers kept per revision before the cache starts over.
    private static let maxAnswers = 1024

    init(database: AppDatabase, categorias: [CategoriaConfig]) {
        self.database = database
        self.categorias = categorias
    }

    /// The current menu.
    func menu() throws -> Menu {
        try refresh()
        return state.withLock { $0.menu }
    }

    /// The answer for `key` on the current menu, encoding it with `build` once per revision.
    func answer(key: String, build: (Menu) throws -> [UInt8]) throws -> Encoded {
        try refresh()
        return try state.withLock { s in
            if let hit = s.answers[key] { return hit }
            let body = try build(s.menu)
            let encoded = Encoded(body: body, etag: Self.tag(key: key, body: body))
            if s.answers.count >= Self.maxAnswers { s.answers.removeAll(keepingCapacity: true) }
            s.answers[key] = encoded
            return encoded
        }
    }

    private func refresh() throws {
        let revision = try database.menuRevision()
        if state.withLock({ $0.revision == revision }) { return }
        let snapshot = try database.menuSnapshot()
        let menu = Menu(platos: snapshot.platos, firstSeen: snapshot.categoryOrder, configured: categorias)
        state.withLock { s in
            guard s.revision != snapshot.revision else { return }
            s.revision = snapshot.revision
            s.menu = menu
            s.answers.removeAll()
            s.fotos.removeAll()
        }
    }

    /// A dish's photo, from memory while the menu's revision stands (a photo
    /// change moves it): read from the database once, then sent as is.
    func foto(id: Int64) throws -> FotoPlato? {
        try refresh()
        let (hit, revision) = state.withLock { ($0.fotos[id], $0.revision) }
        if let hit { return hit }
        let foto = try database.foto(id: id)
        state.withLock { s in
            // A change committed meanwhile moved the revision: do not keep what may be stale.
            guard s.revision == revision else { return }
            if s.fotos.count >= Self.maxAnswers { s.fotos.removeAll(keepingCapacity: true) }
            s.fotos[id] = .some(foto)
        }
        return foto
    }

    /// A strong tag from what was asked and the exact bytes (FNV-1a 64), so a
    /// filtered list never shares the whole menu's tag and equal bytes for the
    /// same question always share one, across restarts too.
    static func tag(key: String, body: [UInt8]) -> String {
        var hash = FNV1a()
        hash.add(key)
        hash.add(body)
        return "\"m-" + hash.hex + "\""
    }
}

/// The manager's edits (and the kitchen's sold out): the only caller of
/// `AppDatabase+MenuEditing`. The answers above follow by themselves (the
/// revision moves with every change).
extension MenuService {
    func create(_ cambios: CambiosPlato) -> PendingWrite<Plato> { database.creatingPlato(cambios) }
    func update(id: Int64, _ cambios: CambiosPlato) -> PendingWrite<Plato> { database.updatingPlato(id: id, cambios) }
    func retire(id: Int64, now: Int64) -> PendingWrite<Void> { database.retiringPlato(id: id, now: now) }
    func setDisponible(id: Int64, _ disponible: Bool) -> PendingWrite<Plato> { database.settingDisponible(id: id, disponible) }
    func setFoto(id: Int64, format: ImageHeader.Format, bytes: [UInt8], info: ImageHeader.Info, tag: String) -> PendingWrite<Plato> {
        database.settingFoto(id: id, tipo: format.rawValue, datos: bytes, etiqueta: tag, ancho: info.width, alto: info.height)
    }
    func deleteFoto(id: Int64) -> PendingWrite<Void> { database.deletingFoto(id: id) }
    func setOpciones(id: Int64, _ grupos: [NuevoGrupo]) -> PendingWrite<Plato> { database.settingOpciones(id: id, grupos) }
}
