import ComandaCore
import ComandaQR
import ComandaRuntime
import ComandaStore
import Dispatch
import Foundation
import Logging
import Synchronization

/// The print spooler: one thread per printer, printing its jobs from the
/// database's queue one at a time, oldest first, one connection per job.
/// Before a job it asks the printer's status (`DLE EOT 1`, `DLE EOT 4`; no
/// answer within 2 s is taken as ready: printers without status), after it
/// the paper again (paper gone mid-job: printed again, headed REIMPRESIÓN).
/// A printer that refuses, fails or has no paper waits and is asked again
/// every 5 s; one with a backup hands it the jobs it could not print for
/// `respaldoSegundos`, and takes them back once ready. It hears of new jobs
/// through the store's after-commit channel, and of printers added or
/// changed the same way. Its state is in memory: at start every printer is
/// asked. A job cut off by a crash is printed again after the restart.
final class Spooler: BackgroundService, @unchecked Sendable {
    let serviceName = "print spooler"
    private let database: AppDatabase
    private let now: @Sendable () -> Int64
    private let respaldoSegundos: Int
    private let logger: Logger
    /// Told when a printer's state changes (the live streams' `event: impresoras`).
    private let onChange: @Sendable () -> Void
    /// How long to wait for a connection or a status byte, and between tries.
    let espera: Double, reintento: Double

    private let workers = Mutex<[Int64: PrinterWorker]>([:])
    private let running = Atomic<Bool>(false)

    init(database: AppDatabase, now: @escaping @Sendable () -> Int64, respaldoSegundos: Int, logger: Logger,
         espera: Double = 2, reintento: Double = 5, onChange: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.now = now
        self.respaldoSegundos = respaldoSegundos
        self.logger = logger
        self.espera = espera
        self.reintento = reintento
        self.onChange = onChange
    }

    func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        do {
            let cut = try database.recuperarCortados(now: now())
            if !cut.isEmpty { logger.warning("\(cut.count) print jobs cut off by a stop are printed again, headed REIMPRESIÓN") }
        } catch {
            logger.error("print queue: cannot read the jobs cut off by a stop: \(error)")
        }
        reload()
    }

    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let all = workers.withLock { w in defer { w = [:] }; return Array(w.values) }
        for worker in all { worker.stop() }
    }

    /// What a committed change means to the printers.
    func committed(_ change: Change) {
        guard running.load(ordering: .acquiring) else { return }
        switch change {
        case .impresoras: reload()
        case .trabajos(let ids): for id in ids { wake(id) }
        case .cuenta(_, let comandas) where !comandas.isEmpty: wakeAll()
        case .pedido(let p) where p.estado == .aceptado: wakeAll()
        default: break
        }
    }

    private func wake(_ id: Int64) { workers.withLock { $0[id] }?.wake() }
    private func wakeAll() { for w in workers.withLock({ Array($0.values) }) { w.wake() } }

    /// The printers as configured now: a thread for each new one, the others told their settings.
    private func reload() {
        let printers: [Impresora]
        do { printers = try database.impresoras().map(\.impresora) } catch {
            logger.error("print queue: cannot read the printers: \(error)")
            return
        }
        let names = Dictionary(uniqueKeysWithValues: printers.map { ($0.id, $0.nombre) })
        var started: [PrinterWorker] = []
        let gone: [PrinterWorker] = workers.withLock { w in
            var removed: [PrinterWorker] = []
            for (id, worker) in w where names[id] == nil { removed.append(worker); w[id] = nil }
            for p in printers {
                if let worker = w[p.id] { worker.configure(p, names: names) } else {
                    let worker = PrinterWorker(printer: p, names: names, spooler: self)
                    w[p.id] = worker
                    started.append(worker)
                }
            }
            return removed
        }
        for worker in gone { worker.stop() }
        for worker in started { worker.start() }
        for worker in workers.withLock({ Array($0.values) }) { worker.wake() }
    }

    /// A printer's state and since when: one the spooler has not taken up yet (just added) is ready since now.
    func estado(_ id: Int64) -> (estado: EstadoImpresora, desde: Int64) {
        workers.withLock { $0[id] }?.estado() ?? (.lista, now())
    }

    /// Opens the cash drawer: the pulse to every printer with `cajon` that is
    /// ready now (never queued, never sent late).
    func abrirCajon() {
        let ready = workers.withLock { w in w.values.filter { $0.tieneCajon && $0.estado().estado == .lista } }
        for worker in ready { worker.kick() }
    }

    fileprivate func changed() { onChange() }
    fileprivate var store: AppDatabase { database }
    fileprivate var clock: Int64 { now() }
    fileprivate var backupDelay: Int { respaldoSegundos }
    fileprivate var log: Logger { logger }
    fileprivate func worker(_ id: Int64) -> PrinterWorker? { workers.withLock { $0[id] } }
}

/// One printer's thread.
final class PrinterWorker: @unchecked Sendable {
    private struct Settings {
        var printer: Impresora
        var names: [Int64: String]
    }

    private let id: Int64
    private let settings: Mutex<Settings>
    private let state = Mutex<(estado: EstadoImpresora, desde: Int64)>((.lista, 0))
    private let woken = DispatchSemaphore(value: 0)
    private let pending = Atomic<Bool>(false)
    private let running = Atomic<Bool>(true)
    private let drawer = Atomic<Bool>(false)
    /// Waiting out a retry: new jobs do not wake it (only the drawer or a stop).
    private let resting = Atomic<Bool>(false)
    private unowned let spooler: Spooler

    init(printer: Impresora, names: [Int64: String], spooler: Spooler) {
        id = printer.id
        settings = Mutex(Settings(printer: printer, names: names))
        self.spooler = spooler
        state.withLock { $0 = (.lista, spooler.clock) }
    }

    var tieneCajon: Bool { settings.withLock { $0.printer.cajon } }

    func configure(_ printer: Impresora, names: [Int64: String]) { settings.withLock { $0 = Settings(printer: printer, names: names) } }

    func estado() -> (estado: EstadoImpresora, desde: Int64) { state.withLock { $0 } }

    // At nice 10 (.low): printing takes little CPU, and never the event loops' or the writer's.
    func start() { _ = Threads.start(.low) { [self] in loop() } }

    func stop() {
        running.store(false, ordering: .releasing)
        woken.signal()
    }

    /// Something may be waiting for it: look now.
    func wake() {
        guard !resting.load(ordering: .acquiring) else { return }
        if !pending.exchange(true, ordering: .acquiringAndReleasing) { woken.signal() }
    }

    /// The drawer's pulse, sent by the printer's own thread as soon as it can.
    func kick() {
        drawer.store(true, ordering: .releasing)
        woken.signal()
    }

    /// The printer's state now: true if that changed it.
    @discardableResult
    private func set(_ estado: EstadoImpresora) -> Bool {
        let changed: Bool = state.withLock { s in
            guard s.estado != estado else { return false }
            s = (estado, spooler.clock)
            return true
        }
        if changed {
            let name = settings.withLock { $0.printer.nombre }
            if estado == .lista { spooler.log.notice("printer \(name): ready") } else { spooler.log.warning("printer \(name): \(estado.rawValue)") }
            spooler.changed()
        }
        return changed
    }

    private func sleep(_ seconds: Double) {
        _ = woken.wait(timeout: .now() + seconds)
        pending.store(false, ordering: .releasing)
    }

    /// A printer that could not print waits the whole retry time: new jobs
    /// (a send every few milliseconds at the rush) do not make it try again
    /// sooner; a drawer's pulse or a stop does.
    private func rest(_ seconds: Double) {
        resting.store(true, ordering: .releasing)
        defer { resting.store(false, ordering: .releasing) }
        let until = DispatchTime.now() + seconds
        while running.load(ordering: .acquiring), DispatchTime.now() < until, !drawer.load(ordering: .acquiring) {
            _ = woken.wait(timeout: until)
            pending.store(false, ordering: .releasing)
        }
    }

    private func loop() {
        // Jobs its backup took before a restart come back (it starts as ready).
        giveBack()
        while running.load(ordering: .acquiring) {
            pending.store(false, ordering: .releasing)
            let printer = settings.withLock { $0.printer }
            if drawer.exchange(false, ordering: .acquiringAndReleasing) { sendDrawerPulse(printer) }
            let job: Trabajo?
            do { job = try spooler.store.siguienteTrabajo(impresoraID: id) } catch {
                spooler.log.error("print queue of \(printer.nombre): \(error)")
                sleep(spooler.reintento)
                continue
            }
            guard let job else {
                // Nothing to print: a printer that is not ready is asked again every few seconds.
                if estado().estado != .lista {
                    if probe(printer) == .lista { if set(.lista) { giveBack() } } else { rest(spooler.reintento) }
                    continue
                }
                sleep(30)
                continue
            }
            if estado().estado != .lista, handOver(printer, job) { continue }
            switch print(job, on: printer) {
            case .printed: if set(.lista) { giveBack() }
            case .notReady(let estado):
                set(estado)
                if !handOver(printer, job) { rest(spooler.reintento) }
            }
        }
    }

    /// Jobs this printer could not print for the backup delay go to its backup: true if some went.
    private func handOver(_ printer: Impresora, _ job: Trabajo) -> Bool {
        guard let backup = printer.respaldoID, spooler.clock - job.creado >= Int64(spooler.backupDelay) else { return false }
        do {
            let moved = try spooler.store.pasarARespaldo(impresoraID: id, respaldoID: backup, creadoAntes: spooler.clock - Int64(spooler.backupDelay))
            if moved > 0 {
                spooler.log.warning("printer \(printer.nombre): \(moved) jobs handed to its backup")
                spooler.worker(backup)?.wake()
                return true
            }
        } catch {
            spooler.log.error("printer \(printer.nombre): cannot hand its jobs to the backup: \(error)")
        }
        return false
    }

    /// Ready again (or started): the jobs its backup has not printed yet
    /// come back. Only then: while it prints, none goes to its backup, and
    /// the look is a write in the writer's queue that reads every waiting job.
    private func giveBack() {
        if let back = try? spooler.store.recuperarDeRespaldo(impresoraID: id), back > 0 {
            spooler.log.notice("printer \(settings.withLock { $0.printer.nombre }): \(back) jobs taken back from its backup")
        }
    }

    private enum Outcome { case printed, notReady(EstadoImpresora) }

    /// The status on an open connection: offline or out of paper, else ready (no answer: ready).
    private func status(_ connection: PrinterConnection) throws -> EstadoImpresora {
        if let online = try connection.ask(EscPos.estadoImpresora, timeout: spooler.espera), EscPos.fueraDeLinea(online) {
            // Offline is what an open cover or no paper makes it: the paper sensor says which.
            if let paper = try connection.ask(EscPos.estadoPapel, timeout: spooler.espera), EscPos.sinPapel(paper) { return .sinPapel }
            return .desconectada
        }
        if let paper = try connection.ask(EscPos.estadoPapel, timeout: spooler.espera), EscPos.sinPapel(paper) { return .sinPapel }
        return .lista
    }

    private func probe(_ printer: Impresora) -> EstadoImpresora {
        do {
            let connection = try PrinterConnection.open(host: printer.host, port: printer.puerto, timeout: spooler.espera)
            defer { connection.close() }
            let found = try status(connection)
            if found != .lista { set(found) }
            return found
        } catch {
            set(.desconectada)
            return .desconectada
        }
    }

    private func print(_ job: Trabajo, on printer: Impresora) -> Outcome {
        let connection: PrinterConnection
        do { connection = try PrinterConnection.open(host: printer.host, port: printer.puerto, timeout: spooler.espera) } catch {
            return .notReady(.desconectada)
        }
        do {
            let before = try status(connection)
            guard before == .lista else {
                connection.close()
                return .notReady(before)
            }
            var cabecera: [String] = []
            if job.reimprimir || job.reimpresionDe != nil { cabecera.append("REIMPRESIÓN") }
            if let original = job.respaldoDe { cabecera.append("RESPALDO DE " + (settings.withLock { $0.names[original] } ?? "otra impresora")) }
            let bytes = EscPos.bytes(job.ticket, formato: printer.formato, cabecera: cabecera, modulos: QRCode.modules)
            try spooler.store.empezarTrabajo(id: job.id)
            do {
                try connection.write(bytes)
                // Paper gone while it printed: it prints again, whole, once paper is back.
                if let paper = try connection.ask(EscPos.estadoPapel, timeout: spooler.espera), EscPos.sinPapel(paper) {
                    connection.close()
                    try spooler.store.trabajoNoImpreso(id: job.id, reimprimir: true)
                    return .notReady(.sinPapel)
                }
                connection.close()
                try spooler.store.trabajoImpreso(id: job.id, now: spooler.clock)
                return .printed
            } catch {
                connection.close()
                try? spooler.store.trabajoNoImpreso(id: job.id, reimprimir: true)
                return .notReady(.desconectada)
            }
        } catch {
            connection.close()
            return .notReady(.desconectada)
        }
    }

    private func sendDrawerPulse(_ printer: Impresora) {
        guard let connection = try? PrinterConnection.open(host: printer.host, port: printer.puerto, timeout: spooler.espera) else { return }
        try? connection.write(EscPos.cajon)
        connection.close()
    }
}
