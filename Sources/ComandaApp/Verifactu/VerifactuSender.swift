import ComandaCore
import ComandaRuntime
import ComandaStore
import Dispatch
import Foundation
import Logging
import Synchronization

/// Sends the billing records to the AEAT: one background service, one
/// thread, one request in flight. The queue is the records themselves
/// (those the AEAT has not answered about, in chain order); it wakes when
/// an invoice or a void commits (the after-commit channel) and sends when
/// the last answer's `TiempoEsperaEnvio` has passed (at once with 1,000
/// waiting), after a failure when its backoff has (5 s doubling to 1 h).
/// Every answer is written in one transaction; a request in flight is kept
/// as such, so a crash sends its records again, with the incident.
final class VerifactuSender: BackgroundService, @unchecked Sendable {
    let serviceName = "the VERI*FACTU sender"
    private let database: AppDatabase
    private let conexion: AEATConexion
    private let empresa: Empresa
    private let productor: (nombre: String, nif: String)
    private let metrics: AppMetrics
    private let logger: Logger
    private let reloj: @Sendable () -> Double
    /// The most records in one request.
    static let lote = 1000

    private let lock = ConditionLock()
    // Behind `lock`:
    private var started = false
    private var stopping = false
    /// The thread is in the store (stop waits for it to come out).
    private var inStore = false
    // Between the writer's thread (a record committed) and the sender's, with
    // no lock: the sender runs at idle priority, and a lock it held when the
    // kernel put it aside would hold up the writer, and every payment.
    /// Records committed since the thread last counted (an invoice or a void each).
    private let nuevos = Atomic<Int>(0)
    /// How many new records wake the sleeping thread (`Int.max`: none; it
    /// wakes at its time): a payment signals only when it matters, not
    /// thousands of times a second.
    private let umbral = Atomic<Int>(Int.max)
    private let stopped = Atomic<Bool>(false)
    /// Where the thread sleeps.
    private let timbre = DispatchSemaphore(value: 0)

    init(database: AppDatabase, conexion: AEATConexion, empresa: Empresa, productor: (nombre: String, nif: String), metrics: AppMetrics,
         logger: Logger, reloj: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.database = database
        self.conexion = conexion
        self.empresa = empresa
        self.productor = productor
        self.metrics = metrics
        self.logger = logger
        self.reloj = reloj
    }

    func start() {
        lock.lock()
        defer { lock.unlock() }
        guard !started, !stopping else { return }
        started = true
        // At idle priority (`SCHED_IDLE`): it runs only when no payment, no
        // request and no write wants the core, so the sender never holds one
        // up (a restaurant's core is idle most of the time; under a
        // benchmark's flood it catches up when the flood ends).
        if !Threads.start(.background, { [self] in run() }) {
            logger.error("could not start \(serviceName): the billing records are not being sent")
        }
    }

    func stop() {
        lock.lock()
        stopping = true
        stopped.store(true, ordering: .sequentiallyConsistent)
        timbre.signal()
        lock.broadcast()
        while inStore { lock.wait() }
        lock.unlock()
    }

    /// A record was committed (an invoice, a void): count it, and wake the
    /// thread if it sleeps with none waiting or this may make 1,000.
    func wake() {
        let count = nuevos.add(1, ordering: .sequentiallyConsistent).newValue
        if count == umbral.load(ordering: .sequentiallyConsistent) { timbre.signal() }
    }

    /// Runs `body` on the store unless stopping (nil then, or when the store failed: logged).
    private func store<T>(_ what: String, _ body: () throws(StoreError) -> T) -> T? {
        lock.lock()
        guard !stopping else { lock.unlock(); return nil }
        inStore = true
        lock.unlock()
        defer {
            lock.lock()
            inStore = false
            lock.broadcast()
            lock.unlock()
        }
        do { return try body() } catch {
            logger.error("VERI*FACTU: could not \(what) (\(error.description))")
            return nil
        }
    }

    /// Sleeps until `deadline` (Unix seconds; nil: until a record comes) or
    /// until the records committed meanwhile, with `known` waiting, make
    /// `Self.lote`; the records committed meanwhile, or nil when stopping.
    private func sleep(until deadline: Double?, known: Int) -> Int? {
        umbral.store(deadline == nil ? 1 : known < 0 ? Int.max : max(1, Self.lote - known), ordering: .sequentiallyConsistent)
        defer { umbral.store(Int.max, ordering: .sequentiallyConsistent) }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let count = nuevos.load(ordering: .sequentiallyConsistent)
            if deadline == nil, count > 0 { break }
            if known + count >= Self.lote { break }
            let left = deadline.map { $0 - reloj() } ?? 3600
            if left <= 0 { break }
            _ = timbre.wait(timeout: .now() + left)
        }
        return taken()
    }

    /// The records committed since the last count (nil when stopping).
    private func taken() -> Int? {
        let count = nuevos.exchange(0, ordering: .sequentiallyConsistent)
        return stopped.load(ordering: .sequentiallyConsistent) ? nil : count
    }

    private func run() {
        guard let cortada = store("look for a request cut off", { () throws(StoreError) -> Bool in try database.verifactuTrasCaida() }),
              let instalacion = store("keep the installation's number", { () throws(StoreError) in
                  try database.numeroInstalacion(generate: { UUID().uuidString.lowercased() })
              }),
              let inicial = store("read the sending's state", { () throws(StoreError) in try database.estadoEnvioVerifactu() })
        else { return }
        if cortada { logger.notice("VERI*FACTU: a request was cut off by a stop; its records go again, with the incident") }
        let sistema = VerifactuXML.Sistema(nombreRazon: productor.nombre, nif: productor.nif, version: ComandaVersion.numero,
                                           numeroInstalacion: instalacion)
        // When the last answer and the last failure came: what was kept is in
        // whole seconds, so a second more (never a request early).
        var ultimaRespuesta = inicial.ultimoFecha.map { Double($0) + 1 }
        var espera = Double(inicial.esperaSegundos)
        var fallos = inicial.fallos
        var ultimoFallo = inicial.errorFecha.map { Double($0) + 1 }
        // Every record before `desde` has its answer: each count reads from there.
        var desde: Int64 = 1
        while true {
            // Counted in the store once per request (and when the records
            // committed meanwhile may make 1,000), not at every payment.
            guard taken() != nil,
                  let (esperando, oldest) = store("count the records waiting", { () throws(StoreError) in
                      try database.verifactuEsperando(desde: desde)
                  }) else { return }
            desde = oldest ?? desde
            guard esperando > 0 else {
                if sleep(until: nil, known: 0) != nil { continue } else { return }
            }
            let now = reloj()
            let due: Double
            if fallos > 0, let failed = ultimoFallo {
                due = failed + Double(Verifactu.reintento(fallos: fallos))
            } else if esperando >= Self.lote {
                due = now
            } else {
                due = (ultimaRespuesta ?? now) + espera
            }
            if due > now {
                // After a failure nothing goes before the backoff, not even 1,000 waiting.
                if sleep(until: due, known: fallos > 0 ? Int.min / 2 : esperando) != nil { continue } else { return }
            }
            if fallos > 0 {
                guard store("mark the records waiting with the incident", { () throws(StoreError) in
                    try database.verifactuIncidenciaEsperando(desde: desde)
                }) != nil else { return }
            }
            guard let loteOpcional = store("read the records to send", { () throws(StoreError) in
                try database.loteVerifactu(limite: Self.lote, desde: desde)
            }) else { return }
            guard let lote = loteOpcional, let last = lote.registros.last?.registro.posicion else { continue }
            let envio = VerifactuXML.Envio(empresa: empresa, sistema: sistema, incidencia: lote.incidencia, registros: lote.registros)
            let body = VerifactuXML.envelope(envio)
            guard store("keep the request in flight", { () throws(StoreError) in try database.verifactuEnVuelo(hasta: last) }) != nil else { return }
            let result = conexion.post(body)
            let answeredAt = reloj()
            switch Self.interpretar(result, registros: lote.registros) {
            case .respuesta(let respuesta, let lineas):
                guard store("keep the AEAT's answer", { () throws(StoreError) in
                    try database.verifactuRespuesta(lineas, estado: respuesta.estadoEnvio, csv: respuesta.csv, espera: respuesta.tiempoEsperaEnvio,
                                                    registros: lote.registros.count, fecha: Int64(answeredAt), desde: desde)
                }) != nil else { return }
                ultimaRespuesta = answeredAt
                espera = Double(respuesta.tiempoEsperaEnvio)
                fallos = 0
                let resultado = ["Correcto": "correcto", "ParcialmenteCorrecto": "parcialmente_correcto"][respuesta.estadoEnvio] ?? "incorrecto"
                metrics.verifactuEnvio(resultado: resultado)
                let rejected = lineas.filter { $0.estado == "rechazado" }.count
                if rejected > 0 || lineas.count < lote.registros.count {
                    logger.warning("VERI*FACTU: \(lote.registros.count) records sent, \(lineas.count - rejected) accepted, \(rejected) rejected, \(lote.registros.count - lineas.count) not answered (EstadoEnvio \(respuesta.estadoEnvio))")
                } else {
                    logger.info("VERI*FACTU: \(lote.registros.count) records sent and accepted (CSV \(respuesta.csv ?? "-"))")
                }
            case .fallo(let mensaje):
                guard store("keep the failure", { () throws(StoreError) in
                    try database.verifactuFallo(mensaje: mensaje, fecha: Int64(answeredAt), desde: desde)
                }) != nil else { return }
                fallos += 1
                ultimoFallo = answeredAt
                metrics.verifactuEnvio(resultado: "fallo")
                logger.warning("VERI*FACTU: \(lote.registros.count) records not sent, again in \(Verifactu.reintento(fallos: fallos)) s: \(mensaje)")
            }
        }
    }

    /// What a request's outcome means.
    enum Interpretacion: Equatable {
        /// A valid answer, with what it said of each record it named.
        case respuesta(RespuestaAEAT.Respuesta, [RespuestaRegistro])
        /// No answer to keep: the records wait, tried again after the backoff.
        case fallo(String)
    }

    /// Reads the outcome of a request for `registros`: an HTTP 200 holding
    /// a valid answer, each line matched to its record by its invoice and
    /// operation (a line naming none of them is ignored; a record without a
    /// line waits); anything else is a failure, said in the manager's words.
    static func interpretar(_ result: AEATConexion.Resultado,
                            registros: [RegistroAEAT]) -> Interpretacion {
        let status: Int, cuerpo: Data
        switch result {
        case .fallo(let mensaje): return .fallo(mensaje)
        case .respuesta(let s, let c): (status, cuerpo) = (s, c)
        }
        switch RespuestaAEAT.parse(cuerpo) {
        case .fault(let servidor, let codigo, let mensaje):
            let side = servidor ? "error del servidor de la AEAT" : "la AEAT rechaza la petición"
            return .fallo("\(side) (SOAP Fault \(codigo), HTTP \(status)): \(mensaje)")
        case .respuesta(let respuesta) where status == 200:
            var byKey: [String: Int64] = [:]
            for item in registros { byKey[key(item.registro.registro)] = item.registro.posicion }
            var seen = Set<Int64>()
            var lineas: [RespuestaRegistro] = []
            for linea in respuesta.lineas {
                guard let posicion = byKey[[linea.idEmisor, linea.numSerie, linea.fecha, linea.tipoOperacion].joined(separator: "\u{1F}")],
                      seen.insert(posicion).inserted else { continue }
                let resultado = linea.resultado
                lineas.append(RespuestaRegistro(posicion: posicion, estado: resultado, codigo: linea.codigo, descripcion: linea.descripcion,
                                                csv: resultado == "rechazado" ? nil : respuesta.csv))
            }
            return .respuesta(respuesta, lineas)
        case .respuesta:
            return .fallo("respuesta de la AEAT con HTTP \(status)")
        case nil:
            if status >= 500 { return .fallo("error del servidor de la AEAT (HTTP \(status))") }
            if status >= 400 { return .fallo("la AEAT rechaza la petición (HTTP \(status))") }
            return .fallo("la AEAT ha respondido algo que no es una respuesta válida (HTTP \(status))")
        }
    }

    /// A record's invoice and operation, as an answer's line names them.
    private static func key(_ r: Verifactu.Registro) -> String {
        switch r {
        case let .alta(id, num, fecha, _, _, _, _): return [id, num, fecha, "Alta"].joined(separator: "\u{1F}")
        case let .anulacion(id, num, fecha, _): return [id, num, fecha, "Anulacion"].joined(separator: "\u{1F}")
        }
    }
}

/// comanda's version, as the AEAT's `SistemaInformatico` and the producer's declaration name it.
enum ComandaVersion {
    static let numero = "1.0.0"
    /// The date of this version.
    static let fecha = "2026-11-27"
}
