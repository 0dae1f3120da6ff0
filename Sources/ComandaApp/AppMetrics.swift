import ComandaRuntime
import ComandaHTTP
import ComandaStore
import CoreMetrics
import Metrics
import Prometheus

/// The application's metrics, through swift-metrics into its own Prometheus
/// registry (injected factory, so every application, and every test, has its
/// own): requests by route pattern and status, a latency histogram per route,
/// open connections, parse errors by kind, and the database's size.
public final class AppMetrics: HTTPServerObserver, Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let database: AppDatabase
    /// What a request counts under (no string built per request to look it up).
    private struct RequestKey: Hashable { let route: String, method: HTTPMethod, status: Int }
    private let requests = Locked<[RequestKey: CoreMetrics.Counter]>([:])
    private let timers = Locked<[String: Metrics.Timer]>([:])
    private let parseErrors = Locked<[String: CoreMetrics.Counter]>([:])
    private let refusals = Locked<[String: CoreMetrics.Counter]>([:])
    private let connections: CoreMetrics.Gauge
    private let databaseSize: CoreMetrics.Gauge
    private let openConnectionsSource = Locked<(@Sendable () -> Int)?>(nil)
    private let streams: CoreMetrics.Gauge
    private let openStreamsSource = Locked<(@Sendable () -> Int)?>(nil)
    private let streamsDropped: CoreMetrics.Counter
    /// Group commit: write transactions and the requests they held, counted
    /// up to the store's totals at each exposition.
    private let writeTransactions: CoreMetrics.Counter
    private let writeRequests: CoreMetrics.Counter
    private let writesCounted = Locked<(transactions: Int, requests: Int)>((0, 0))
    /// The billing records by their state at the AEAT, read at each exposition.
    private let verifactuRegistros: [(estado: String, gauge: CoreMetrics.Gauge)]
    /// The age of the newest good backup (-1: none) and the folders whose last copy failed.
    private let backupAge: CoreMetrics.Gauge
    private let backupFailing: CoreMetrics.Gauge
    private let backupSource = Locked<(@Sendable () -> (age: Int64?, failing: Int))?>(nil)
    /// The requests to the AEAT by how they ended.
    private let verifactuEnvios = Locked<[String: CoreMetrics.Counter]>([:])

    init(database: AppDatabase) {
        self.database = database
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1),
        ]
        self.factory = factory
        connections = CoreMetrics.Gauge(label: "comanda_http_open_connections", factory: factory)
        databaseSize = CoreMetrics.Gauge(label: "comanda_database_size_bytes", factory: factory)
        streams = CoreMetrics.Gauge(label: "comanda_http_open_streams", factory: factory)
        streamsDropped = CoreMetrics.Counter(label: "comanda_http_streams_dropped_total", factory: factory)
        streamsDropped.increment(by: 0)
        writeTransactions = CoreMetrics.Counter(label: "comanda_db_write_transactions_total", factory: factory)
        writeRequests = CoreMetrics.Counter(label: "comanda_db_write_requests_total", factory: factory)
        writeTransactions.increment(by: 0)
        writeRequests.increment(by: 0)
        backupAge = CoreMetrics.Gauge(label: "comanda_backup_age_seconds", factory: factory)
        backupFailing = CoreMetrics.Gauge(label: "comanda_backup_folders_failing", factory: factory)
        verifactuRegistros = ["sin_enviar", "aceptado", "aceptado_con_errores", "rechazado"].map {
            ($0, CoreMetrics.Gauge(label: "comanda_verifactu_registros", dimensions: [("estado", $0)], factory: factory))
        }
    }

    /// Counts one request to the AEAT by how it ended: `correcto`,
    /// `parcialmente_correcto`, `incorrecto` (the answer's `EstadoEnvio`) or
    /// `fallo` (not delivered, not answered, or not an answer).
    func verifactuEnvio(resultado: String) {
        let counter = verifactuEnvios.withLock { all in
            if let c = all[resultado] { return c }
            let c = CoreMetrics.Counter(label: "comanda_verifactu_envios_total", dimensions: [("resultado", resultado)], factory: factory)
            all[resultado] = c
            return c
        }
        counter.increment()
    }

    /// Where the open-connection count comes from (the server, once it exists).
    /// Capture the server weakly: it holds the application, which holds this.
    public func observeConnections(_ source: @escaping @Sendable () -> Int) {
        openConnectionsSource.withLock { $0 = source }
    }

    /// Where the open-stream count comes from (the server; capture it weakly).
    public func observeStreams(_ source: @escaping @Sendable () -> Int) {
        openStreamsSource.withLock { $0 = source }
    }

    /// Counts a stream dropped because its client stopped reading.
    public func streamDropped() {
        streamsDropped.increment()
    }

    /// Counts one answered request and its handling time.
    func record(route: String, method: HTTPMethod, status: Int, nanoseconds: UInt64) {
        let key = RequestKey(route: route, method: method, status: status)
        let counter = requests.withLock { all in
            if let c = all[key] { return c }
            let c = CoreMetrics.Counter(label: "comanda_http_requests_total",
                            dimensions: [("route", route), ("method", method.rawValue), ("status", String(status))], factory: factory)
            all[key] = c
            return c
        }
        counter.increment()
        let timer = timers.withLock { all in
            if let t = all[route] { return t }
            let t = Metrics.Timer(label: "comanda_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            all[route] = t
            return t
        }
        timer.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Counts a request that could not be parsed, by kind.
    public func parseError(_ error: HTTPParseError) {
        let kind = String(describing: error)
        let counter = parseErrors.withLock { all in
            if let c = all[kind] { return c }
            let c = CoreMetrics.Counter(label: "comanda_http_parse_errors_total", dimensions: [("kind", kind)], factory: factory)
            all[kind] = c
            return c
        }
        counter.increment()
    }

    /// Counts a connection refused at accept or cut for being slow, by reason
    /// (`per_client`, `max_connections`, `shutdown`, `out_of_files`, `slow_head`, `slow_body`).
    public func connectionRefused(reason: String) {
        let counter = refusals.withLock { all in
            if let c = all[reason] { return c }
            let c = CoreMetrics.Counter(label: "comanda_http_connections_refused_total", dimensions: [("reason", reason)],
                                        factory: factory)
            all[reason] = c
            return c
        }
        counter.increment()
    }

    /// Where the backups' gauges are read from.
    func copias(_ source: @escaping @Sendable () -> (age: Int64?, failing: Int)) {
        backupSource.withLock { $0 = source }
    }

    /// The Prometheus text exposition, with the gauges read now.
    func exposition() -> [UInt8] {
        if let source = backupSource.withLock({ $0 }) {
            let (age, failing) = source()
            backupAge.record(age ?? -1)
            backupFailing.record(failing)
        }
        if let source = openConnectionsSource.withLock({ $0 }) { connections.record(source()) }
        if let source = openStreamsSource.withLock({ $0 }) { streams.record(source()) }
        if let size = try? database.sizeInBytes() { databaseSize.record(size) }
        if let e = try? database.recuentoVerifactu() {
            for (estado, gauge) in verifactuRegistros {
                gauge.record(["sin_enviar": e.sinEnviar, "aceptado": e.aceptados, "aceptado_con_errores": e.aceptadosConErrores,
                              "rechazado": e.rechazados][estado] ?? 0)
            }
        }
        let now = database.writeBatches
        let before = writesCounted.withLock { counted in
            defer { counted = now }
            return counted
        }
        writeTransactions.increment(by: max(0, now.transactions - before.transactions))
        writeRequests.increment(by: max(0, now.requests - before.requests))
        return registry.emitToBuffer()
    }
}
