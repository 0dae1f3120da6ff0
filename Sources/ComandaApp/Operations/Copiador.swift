import ComandaCore
import ComandaRuntime
import ComandaStore
import Dispatch
import Foundation
import Logging
import Synchronization

/// The server's own backups (`copias`): every day at the set hour (and at
/// start, if that day's copy was missed: the box was off), a copy of the
/// database into each folder with SQLite's online backup API, checked
/// before it counts (`AppDatabase.backup`: integrity, the billing chain),
/// then the folder's old copies thinned (`Copias.conservar`), never before
/// a new one has counted. A folder missing, unwritable or full is reported
/// (`GET /copias`, `/gestion`, the log) and the others still get theirs. A
/// restaurant with no folder, or only folders on the database's own disk, is
/// told so once a day. One thread at idle priority: a copy never takes the
/// core from a request, and never holds the writer (it reads a snapshot).
final class Copiador: BackgroundService, @unchecked Sendable {
    let serviceName = "backups"

    /// A folder's state, for `GET /copias`.
    struct Carpeta: Sendable {
        var ruta: String
        /// Its newest good copy: name, when made, size; and what it held when this server made it.
        var ultima: (archivo: String, hecha: Int64, bytes: Int64, resumen: ResumenCopia?)?
        /// The last copy that failed here, and why (cleared by the next good one).
        var error: (mensaje: String, desde: Int64)?
        /// On the same disk as the database: no protection from that disk's death.
        var mismoDisco: Bool
    }

    struct Estado: Sendable {
        var carpetas: [Carpeta]
        var siguiente: Int64
        var copiando: Bool
    }

    private let database: AppDatabase
    private let databasePath: String
    private let carpetas: [String]
    let hora: Copias.Hora
    let diarias: Int, mensuales: Int
    private let zone: TimeZone
    private let now: @Sendable () -> Int64
    private let logger: Logger

    private let state: Mutex<Estado>
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let timbre = DispatchSemaphore(value: 0)
    /// Signalled by the thread when it ends (stop waits for a copy under way to give up).
    private let ended = DispatchSemaphore(value: 0)
    private let lastNoDiskWarning = Mutex<Int64?>(nil)

    init(database: AppDatabase, databasePath: String, carpetas: [String], hora: Copias.Hora, diarias: Int, mensuales: Int,
         zone: TimeZone, now: @escaping @Sendable () -> Int64, logger: Logger) {
        self.database = database
        self.databasePath = databasePath
        self.carpetas = carpetas
        self.hora = hora
        self.diarias = diarias
        self.mensuales = mensuales
        self.zone = zone
        self.now = now
        self.logger = logger
        let t = now()
        state = Mutex(Estado(carpetas: carpetas.map { Carpeta(ruta: $0, ultima: nil, error: nil, mismoDisco: false) },
                             siguiente: Copias.siguiente(t, hora: hora, zone: zone), copiando: false))
    }

    /// What `GET /copias` and `/metrics` read.
    func estado() -> Estado { state.withLock { $0 } }

    /// The newest good copy in any folder: when it was made (nil: none).
    func ultimaBuena() -> Int64? { estado().carpetas.compactMap { $0.ultima?.hecha }.max() }

    /// Whether the restaurant is protected from its disk's death: some folder is on another disk.
    func enOtroDisco() -> Bool { estado().carpetas.contains { !$0.mismoDisco } }

    func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if !Threads.start(.background, { [self] in run() }) {
            logger.error("could not start \(serviceName): no copies will be made")
            ended.signal()
        }
    }

    func stop() {
        guard started.load(ordering: .acquiring), !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        timbre.signal()
        // A copy under way gives up at its next step (a few milliseconds).
        ended.wait()
    }

    private var running: Bool { !stopped.load(ordering: .acquiring) }

    /// Asked for by the manager (`POST /copias`): a copy into every folder now.
    private let pedida = Atomic<Bool>(false)

    var tieneCarpetas: Bool { !carpetas.isEmpty }

    /// A copy now into every folder (before an upgrade, say); false when one is under way or asked for already.
    func copiarAhora() -> Bool {
        guard started.load(ordering: .acquiring), running, !carpetas.isEmpty, !estado().copiando,
              !pedida.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        state.withLock { $0.copiando = true }
        timbre.signal()
        return true
    }

    private func run() {
        defer { ended.signal() }
        mirarCarpetas()
        avisarSinDisco()
        // A copy missed (the box was off at the hour, or this is its first start): made now.
        let debida = Copias.ultimaProgramada(now(), hora: hora, zone: zone)
        if estado().carpetas.contains(where: { ($0.ultima?.hecha ?? 0) < debida }) {
            copiar(soloAtrasadas: debida)
        }
        while running {
            let siguiente = state.withLock { $0.siguiente }
            let wait = max(0, siguiente - now())
            // Woken each minute at most: a clock set forward (NTP at boot) is noticed.
            _ = timbre.wait(timeout: .now() + .seconds(Int(min(wait, 60))))
            guard running else { return }
            avisarSinDisco()
            let asked = pedida.exchange(false, ordering: .acquiringAndReleasing)
            guard asked || now() >= siguiente else { continue }
            copiar(soloAtrasadas: nil)
        }
    }

    /// Whether each folder shares the database's disk (looked at before each copy: a disk may be mounted since).
    private func mirarDiscos() {
        let disk = device(of: (databasePath as NSString).deletingLastPathComponent)
        for (i, ruta) in carpetas.enumerated() {
            let same = disk != nil && device(of: ruta) == disk
            state.withLock { $0.carpetas[i].mismoDisco = same }
        }
    }

    /// At start: each folder's newest copy of ours that passes the checks
    /// (opened read-only: integrity, the chain); a damaged one is reported and never counted.
    private func mirarCarpetas() {
        mirarDiscos()
        for (i, ruta) in carpetas.enumerated() where running {
            let copies = ((try? FileManager.default.contentsOfDirectory(atPath: ruta)) ?? [])
                .compactMap { name in Copias.leer(name).map { (name: name, sello: $0.sello) } }.sorted { $0.sello > $1.sello }
            for copy in copies.prefix(3) {
                guard let made = Copias.instante(copy.sello, zone: zone) else { continue }
                do {
                    let resumen = try AppDatabase.comprobarCopia(ruta + "/" + copy.name, zone: zone)
                    state.withLock { $0.carpetas[i].ultima = (copy.name, made, resumen.bytes, resumen) }
                    break
                } catch {
                    logger.error("backups: the copy \(ruta)/\(copy.name) is damaged and does not count: \(error.description)")
                    state.withLock { $0.carpetas[i].error = ("La copia \(copy.name) está dañada y no cuenta: \(error.description)", now()) }
                }
            }
        }
    }

    /// Once a day: no folder, or none on another disk than the database's.
    private func avisarSinDisco() {
        let t = now()
        guard carpetas.isEmpty || !enOtroDisco() else { return }
        let due = lastNoDiskWarning.withLock { last in
            guard last.map({ t - $0 >= 86_400 }) ?? true else { return false }
            last = t
            return true
        }
        guard due else { return }
        logger.warning(carpetas.isEmpty
            ? "backups: no folder is set (copias.carpetas): the restaurant's invoices are on this one disk; set a folder on a USB disk or a NAS (docs/OPERATIONS.md)"
            : "backups: every copy folder is on the database's own disk: a dead disk loses the copies too; set one on a USB disk or a NAS (docs/OPERATIONS.md)")
    }

    /// A copy into every folder (`soloAtrasadas`: only those whose newest copy is older than that).
    private func copiar(soloAtrasadas debida: Int64?) {
        state.withLock { $0.copiando = true }
        defer {
            let t = now()
            state.withLock {
                $0.copiando = false
                $0.siguiente = Copias.siguiente(t, hora: hora, zone: zone)
            }
        }
        mirarDiscos()
        for (i, ruta) in carpetas.enumerated() where running {
            if let debida, (estado().carpetas[i].ultima?.hecha ?? 0) >= debida { continue }
            copiar(en: i, ruta)
        }
    }

    private func copiar(en i: Int, _ ruta: String) {
        let t = now()
        func failed(_ mensaje: String, _ english: String) {
            logger.error("backup into \(ruta) failed: \(english)")
            state.withLock { $0.carpetas[i].error = (mensaje, t) }
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: ruta, isDirectory: &isDir), isDir.boolValue else {
            return failed("La carpeta no existe (¿el disco está desconectado?)", "the folder does not exist (is the disk unplugged?)")
        }
        guard access(ruta, W_OK | X_OK) == 0 else {
            return failed("No se puede escribir en la carpeta (permisos o disco de solo lectura)", "the folder cannot be written (permissions, or a read-only disk)")
        }
        // What a copy cut off (a crash, a pulled disk) left behind.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: ruta)) ?? [] where name.hasPrefix(".comanda-") && name.contains(".partial-") {
            try? FileManager.default.removeItem(atPath: ruta + "/" + name)
        }
        let name = Copias.nombre(t, zone: zone)
        let started = DispatchTime.now()
        let resumen: ResumenCopia
        do {
            resumen = try database.backup(to: ruta + "/" + name, zone: zone, seguir: { [self] in running })
        } catch {
            guard running else { return }
            let text = error.description
            let full = text.contains("disk is full") || text.contains("No space left")
            return failed(full ? "El disco de la carpeta está lleno" : "La copia falló: " + text, text)
        }
        let ms = (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
        logger.notice("backup \(ruta)/\(name): \(resumen.bytes) bytes, \(resumen.facturas) invoices, \(resumen.registros) billing records, checked, in \(ms) ms")
        state.withLock { s in
            s.carpetas[i].ultima = (name, t, resumen.bytes, resumen)
            s.carpetas[i].error = nil
        }
        // Only now that a new copy counts: the old ones beyond what is kept.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: ruta)) ?? []
        let keep = Copias.conservar(names, hoy: Copias.dia(t, zone: zone), diarias: diarias, mensuales: mensuales).union([name])
        for old in names where Copias.leer(old) != nil && !keep.contains(old) {
            do { try FileManager.default.removeItem(atPath: ruta + "/" + old) } catch {
                logger.warning("backups: cannot remove the old copy \(ruta)/\(old): \(error)")
            }
        }
    }

    private func device(of path: String) -> UInt64? {
        var st = stat()
        guard stat(path.isEmpty ? "." : path, &st) == 0 else { return nil }
        return UInt64(st.st_dev)
    }
}
