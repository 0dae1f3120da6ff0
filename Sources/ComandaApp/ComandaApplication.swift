import ComandaCore
import ComandaHTTP
import ComandaRuntime
import ComandaStore
import Foundation
import Logging

/// The whole application behind one seam: routing, static files, error
/// mapping, conditional GET and gzip. Tests call `respond(to:)` in-process;
/// the server calls the same method for requests from sockets.
public final class ComandaApplication: HTTPResponder {
    private let router: Router<Route>
    private let users: UserService
    /// Logged-in users' open streams, ended with their session.
    let streams: SessionStreams
    /// The threads that hash passwords (logins, registrations).
    private let passwords: BlockingPool
    /// The threads that make long reads (`RouteRequest.offLoop`).
    private let longReads: BlockingPool
    private let reports: BlockingPool
    private let staticFiles: StaticFiles?
    private let logger: Logger
    /// The legacy host app's base path, host key included (`/queue/KEY`).
    public let queueHostPath: String
    /// The metrics (`GET /metrics`); give it to the server as its observer.
    public let metrics: AppMetrics
    /// The live updates' topics and subscribers.
    let hub: EventHub
    /// What runs beside the requests, in the order started (`start()`, `stop()`).
    let services: [any BackgroundService]
    /// The after-commit channel the rooms subscribed to (the store holds it weakly).
    private let changes: Changes
    /// Path prefixes whose next segment is a secret (a guest's link, the
    /// legacy host key): the log shows `…` in its place.
    private let secretPrefixes: [String]
    /// The legacy feed's path: its errors are plain text, never JSON.
    private let legacyBase: String

    /// Builds the application on an open database; `now` (Unix seconds) is the clock.
    /// `locator` finds the default pages (working directory, then beside the binary).
    /// Nothing runs in the background until `start()`.
    public init(configuration: AppConfiguration, database: AppDatabase, logger: Logger = Logger(label: "comanda"),
                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
                locator: ResourceLocator = ResourceLocator()) {
        let c = configuration, zone = configuration.timeZone
        // The times on the tickets queued for the printers, in the restaurant's zone.
        database.zonaImpresion = zone
        self.logger = logger
        staticFiles = c.pages(locator).staticFiles
        metrics = AppMetrics(database: database)
        hub = EventHub()
        // The services: one hash per core at most, in the cores' idle time; long reads off the event loops.
        passwords = BlockingPool(name: "password threads", maxThreads: HTTPServerConfiguration.defaultWorkers,
                                 maxWaiting: c.maxWaitingLogins, priority: c.hashInIdleTime ? .background : .batch)
        longReads = BlockingPool(name: "long reads' threads", maxThreads: HTTPServerConfiguration.defaultWorkers,
                                 maxWaiting: c.maxWaitingReads, priority: .low)
        // The manager's reports over days (a year's cash report is 0.2 s of CPU) only in the core's idle time:
        // at .low, one after another beside the waiters cut their writes to a third (bench-caja-load.sh).
        reports = BlockingPool(name: "reports' threads", maxThreads: HTTPServerConfiguration.defaultWorkers,
                               maxWaiting: c.maxWaitingReads, priority: .background)
        users = UserService(database: database, configuration: c, now: now)
        streams = SessionStreams(users: users)
        // The billing records to the AEAT, when they are to be sent.
        var sender: VerifactuSender?
        // Only a certificate read at load (with its password) opens a sender.
        if c.verifactuEnvio != .no, let empresa = c.empresa, let url = c.verifactuServicio, let certificado = c.verifactuCertificado,
           c.verifactuCertificadoLeido != nil {
            sender = VerifactuSender(database: database,
                                     conexion: AEATConexion(url: url, certificado: certificado, clave: c.verifactuClave ?? "", ca: c.verifactuCa),
                                     empresa: empresa, productor: c.verifactuProductor, metrics: metrics, logger: logger)
        }
        // The printers: their state told on the floor's and the kitchen's streams when it changes.
        let hub = hub
        nonisolated(unsafe) var spoolerRef: Spooler?
        let spooler = Spooler(database: database, now: now, respaldoSegundos: c.impresionRespaldoSegundos, logger: logger) {
            guard let spooler = spoolerRef, let body = try? PrintRoutes.impresoras(database, spooler) else { return }
            hub.publish("cuentas", event: "impresoras", data: body)
            hub.publish("cocina", event: "impresoras", data: body)
        }
        spoolerRef = spooler
        // The server's own backups, into each folder set, every day at the hour.
        let copiador = Copiador(database: database, databasePath: c.database, carpetas: c.copiasCarpetas, hora: c.copiasHora,
                                diarias: c.copiasDiarias, mensuales: c.copiasMensuales, zone: zone, now: now, logger: logger)
        metrics.copias { (copiador.ultimaBuena().map { max(0, now() - $0) }, copiador.estado().carpetas.filter { $0.error != nil }.count) }
        services = database.backgroundServices + [streams, passwords, longReads, reports, spooler, copiador] + (sender.map { [$0] } ?? [])
        let key = Self.queueHostKey(c, database, logger)
        queueHostPath = c.queuePath + "/" + key
        secretPrefixes = ["/espera/", "/m/", c.queuePath + "/"]
        legacyBase = c.queuePath

        // The rooms: each registers its routes and streams and subscribes to the changes it hears of.
        let live = LiveStreams(hub: hub, sessions: streams, logger: logger)
        let menu = MenuService(database: database, categorias: c.categorias)
        let emisor = c.empresa.map {
            AppDatabase.Emisor(nif: $0.nif, serie: c.serieFacturas, serieCompletas: c.serieFacturasCompletas, zone: zone,
                               pruebas: c.verifactuEnvio == .pruebas)
        }
        let kitchen = KitchenService(database: database, hub: hub, now: now, emisor: emisor)
        let waitlist = WaitlistService(database: database, now: now, minutesPerParty: c.minutosPorGrupo, zone: zone)
        let checks = ChecksService(database: database, now: now, zone: zone)
        let bill = BillService(database: database, now: now, zone: zone, empresa: c.empresa, serie: c.serieFacturas,
                               serieCompletas: c.serieFacturasCompletas, pruebas: c.verifactuEnvio == .pruebas,
                               enviando: c.verifactuEnvio != .no, cierre: c.cierreDia)
        let document = APIDescriptionRoutes.Document()
        let features: [any Feature] = [
            HealthRoutes(),
            SettingsRoutes(nombreRestaurante: c.nombreRestaurante, zonaHoraria: c.zonaHoraria, cierreDia: c.cierreDia, urlPublica: c.urlPublica),
            MetricsRoutes(metrics: metrics),
            CopiasRoutes(copiador: copiador, now: now),
            APIDescriptionRoutes(document: document),
            MenuRoutes(catalog: menu),
            MenuEditRoutes(menu: menu, now: now),
            UserRoutes(users: users, menu: menu, passwords: passwords, streams: streams),
            PersonalRoutes(users: users, passwords: passwords),
            OrderRoutes(orders: OrderService(database: database, kitchen: kitchen, now: now), live: live),
            KitchenRoutes(kitchen: kitchen, checks: checks, zone: zone, live: live),
            ReportRoutes(reports: ReportService(database: database, zone: zone, cierre: c.cierreDia, now: now)),
            WaitlistRoutes(waitlist: waitlist, pages: staticFiles, live: live),
            TablesRoutes(tables: TablesService(database: database, zone: zone, now: now), live: live),
            ChecksRoutes(checks: checks, live: live),
            BillRoutes(bill: bill, idempotency: Idempotency(database: database, now: now), restaurante: c.nombreRestaurante,
                       abrirCajon: { spooler.abrirCajon() }),
            PrintRoutes(database: database, spooler: spooler, bill: bill, checks: checks, now: now, zone: zone, restaurante: c.nombreRestaurante),
            VerifactuRoutes(database: database, envio: c.verifactuEnvio, url: c.verifactuServicio, certificado: c.verifactuCertificadoLeido,
                            sender: sender, productor: c.verifactuDeclaracionProductor, now: now),
            TableLinkRoutes(links: TableLinkService(database: database), limit: RateLimit(burst: c.rafagaEnlace), pages: staticFiles, urlPublica: c.urlPublica, live: live),
            LegacyQueueRoutes(base: c.queuePath, hostKey: key, waitlist: waitlist),
        ]
        var router = Routes()
        var subscriptions = Changes.Subscriptions()
        for feature in features {
            feature.register(on: &router)
            feature.subscribe(to: &subscriptions)
        }
        self.router = router.router
        let described = router.document()
        openAPIDocument = described.text + "\n"
        document.set(openAPIDocument)
        #if DEBUG
        schemaCheck = SchemaCheck(document: described, routes: router.router.entries.map { ($0.method, $0.pattern) })
        #endif
        changes = Changes(subscriptions, database: database)
    }

    /// The legacy host app's key: the configured one, else the one kept in
    /// the database (made on the first start); a temporary one if it cannot be kept.
    private static func queueHostKey(_ configuration: AppConfiguration, _ database: AppDatabase, _ logger: Logger) -> String {
        do {
            return try database.queueHostKey(configured: configuration.queueHostKey, generate: WaitlistService.generateHostKey)
        } catch {
            logger.error("could not keep the queue host key in the database (\(error.description)); this run uses a temporary one")
            return WaitlistService.generateHostKey()
        }
    }

    /// Starts the background services (after the routes: call once the server can answer).
    public func start() {
        for service in services {
            service.start()
            logger.debug("started \(service.serviceName)")
        }
    }

    /// Stops the background services, the last started first: call when the
    /// server has stopped answering, before the store closes.
    public func stop() {
        for service in services.reversed() {
            service.stop()
            logger.debug("stopped \(service.serviceName)")
        }
    }

    deinit {
        for service in services.reversed() { service.stop() }
    }

    /// The OpenAPI 3.1 description of the routes, as `GET /openapi.json` serves it (`comanda openapi` prints it).
    public let openAPIDocument: String
    #if DEBUG
    /// Debug builds hold every JSON answer to its route's description.
    private let schemaCheck: SchemaCheck

    /// What is wrong with `response` as an answer of the route `method` `pattern`
    /// by its description (nil: nothing, or not JSON). Debug builds only.
    public func describedProblem(_ response: HTTPResponse, method: HTTPMethod, pattern: String) -> String? {
        schemaCheck.problem(response, method: method, pattern: pattern)
    }
    #endif

    /// Every route with its access, in the order registered (the API description is held against it).
    public var routeTable: [RouteEntry] {
        router.entries.map { RouteEntry(method: $0.method, pattern: $0.pattern, access: $0.handler.access) }
    }

    /// Answers one request. An answer that a route gives later (a write
    /// once committed, a login once its password is hashed) comes back
    /// `pending`: the server waits for it without a thread; in-process
    /// callers wait for it with `settled()`.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        let (answer, routeName) = route(request, started: started)
        // Finished when given (RouteRequest.later).
        if answer.pending != nil { return answer }
        return finish(answer, for: request, route: routeName, started: started)
    }

    /// Looks at a request's head before its body is read (the server asks
    /// when a body is announced and has not all arrived): a route that needs
    /// a token or a role is refused here, 401 or 403, so that nobody without
    /// access can make the server read, or hold, a body. Everything else
    /// (unknown paths, public routes) is read and answered as usual.
    public func screen(head: HTTPRequest) -> HTTPResponse? {
        guard case .found(let route, _, let pattern) = router.match(head.method, path: head.path),
              route.access != .anyone else { return nil }
        do {
            let (usuario, _) = try users.authenticate(head)
            if !route.access.allows(usuario.rol) { throw UserError.forbidden }
            return nil
        } catch {
            return finish(errorResponse(error, request: head), for: head, route: pattern, started: .now)
        }
    }

    /// The path with its secret segment (a guest's or a table's link, the
    /// legacy host key) replaced by `…`, for the log.
    public func loggedPath(_ path: Substring) -> Substring {
        for prefix in secretPrefixes where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            guard !rest.isEmpty else { return path }
            let tail = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
            return Substring(prefix + "…" + tail)
        }
        return path
    }

    /// Gzip and conditional GET applied, the pages' security headers added,
    /// the metrics told: the last step of every answer.
    func finish(_ answer: HTTPResponse, for request: HTTPRequest, route: String, started: ContinuousClock.Instant) -> HTTPResponse {
        var answer = answer
        #if DEBUG
        // A debug build's answer that breaks its route's description is a 500 saying how (tests see it at once).
        if let problem = schemaCheck.problem(answer, method: request.method, pattern: route) {
            logger.error("\(request.method.rawValue) \(route): the answer breaks its description: \(problem)")
            answer = APIError(.internalServerError, "answer_breaks_description",
                              "\(request.method.rawValue) \(route): the answer breaks its description: \(problem)").response
        }
        #endif
        var response = ConditionalGzip.finish(answer, for: request)
        PageHeaders.add(to: &response)
        let elapsed = ContinuousClock.now - started
        let nanos = UInt64(max(0, elapsed.components.seconds)) * 1_000_000_000 + UInt64(max(0, elapsed.components.attoseconds / 1_000_000_000))
        metrics.record(route: route, method: request.method, status: response.status.code, nanoseconds: nanos)
        return response
    }

    /// The answer and the route it counts under (the pattern, never the raw path).
    private func route(_ request: HTTPRequest, started: ContinuousClock.Instant) -> (HTTPResponse, String) {
        switch router.match(request.method, path: request.path) {
        case .found(let route, let parameters, let pattern):
            // An answer given later is finished as every answer is: errors
            // mapped, gzip, headers, metrics. Held strongly: a write still
            // in the writer when the server stops is answered into a closed
            // connection, never through a freed application.
            let finish: @Sendable (Result<HTTPResponse, any Error>) -> HTTPResponse = { [self] result in
                let answer: HTTPResponse
                switch result {
                case .success(let response): answer = response
                case .failure(let error): answer = errorResponse(error, request: request)
                }
                return self.finish(answer, for: request, route: pattern, started: started)
            }
            return (answer(request, route, parameters, finish), pattern)
        case .methodNotAllowed(let allowed):
            return (methodNotAllowed(request, allowed), "unmatched")
        case .badPath:
            return (APIError.badPath.response, "unmatched")
        case .notFound:
            let response = staticFile(request)
            return (response, response.status == .notFound ? "unmatched" : "static")
        }
    }

    /// The one place where a route's access is checked: the token for `user`
    /// and `staff` routes, the role for `staff` ones (`gerente` passes every
    /// staff check), before the handler runs.
    private func answer(_ request: HTTPRequest, _ route: Route, _ parameters: PathParameters,
                        _ finish: @escaping @Sendable (Result<HTTPResponse, any Error>) -> HTTPResponse) -> HTTPResponse {
        do {
            var session: Session?
            // A stream's ticket (EventSource cannot send a token): used up
            // here, and a bad one is a 401 even on a public stream.
            let ticket = route.isStream ? request.queryValue("ticket") : nil
            let ticketHolder = try ticket.map(users.redeemTicket)
            if route.access != .anyone {
                let (usuario, hash) = try ticketHolder ?? users.authenticate(request)
                if !route.access.allows(usuario.rol) { throw UserError.forbidden }
                session = Session(usuario: usuario, tokenHash: hash)
            }
            return try route.handler(RouteRequest(http: request, params: parameters, session: session, access: route.access,
                                                     longReads: longReads, reports: reports, finish: finish))
        } catch {
            return errorResponse(error, request: request)
        }
    }

    /// The one mapping of what a handler throws (now or later) to its answer:
    /// the contract's errors as they say, anything else a 500 that names
    /// nothing of ours but a request id for the log.
    func errorResponse(_ error: any Error, request: HTTPRequest) -> HTTPResponse {
        let response: HTTPResponse
        if let store = error as? StoreError, store.unavailable {
            logger.error("the database is unavailable: \(store.description)")
            response = APIError.databaseUnavailable.response
        } else if let error = error as? any APIErrorConvertible {
            response = error.apiError.response
        } else {
            response = internalError(error, request: request)
        }
        // The legacy feed's clients parse whatever body they get: never JSON there.
        guard request.path == legacyBase || request.path.hasPrefix(legacyBase + "/") else { return response }
        var text = HTTPResponse(status: response.status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]))
        if let retry = response.headers["Retry-After"] { text.headers.add("Retry-After", retry) }
        return text
    }

    private func methodNotAllowed(_ request: HTTPRequest, _ allowed: [HTTPMethod]) -> HTTPResponse {
        let all = allowed + (allowed.contains(.OPTIONS) ? [] : [.OPTIONS])
        if request.method == .OPTIONS {
            var r = HTTPResponse(status: .noContent)
            r.headers.add("Allow", all.map(\.rawValue).joined(separator: ", "))
            return r
        }
        return APIError.methodNotAllowed(all).response
    }

    private func staticFile(_ request: HTTPRequest) -> HTTPResponse {
        guard let staticFiles else { return APIError.notFound().response }
        switch staticFiles.lookup(path: request.path) {
        case .badPath:
            return APIError.badPath.response
        case .notFound:
            return APIError.notFound().response
        case .file(let body, let contentType, let etag):
            guard request.method == .GET || request.method == .HEAD else {
                return methodNotAllowed(request, [.GET, .HEAD])
            }
            return HTTPResponse(status: .ok, headers: HTTPHeaders([
                ("Content-Type", contentType), ("ETag", etag), ("Cache-Control", "no-cache"),
            ]), body: body)
        }
    }

    private func internalError(_ error: any Error, request: HTTPRequest) -> HTTPResponse {
        let id = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        logger.error("request \(id) \(request.method.rawValue) \(loggedPath(request.path)) failed: \(String(reflecting: error))")
        return APIError(.internalServerError, "internal_error", "Something went wrong on our side (request \(id)).").response
    }
}
