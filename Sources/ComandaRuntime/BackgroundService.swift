/// Work that runs beside the requests for as long as the server does (the
/// checkpointer, the streams' sweep, the helper threads, the senders to
/// come). The application keeps them in one list: it starts them after its
/// routes are registered and stops them, in the reverse order, when the
/// server stops (SIGTERM), before the store closes.
public protocol BackgroundService: AnyObject, Sendable {
    /// Its name, for the log.
    var serviceName: String { get }
    /// Starts its work (a second call does nothing).
    func start()
    /// Stops it: once this returns it begins no new work, and what it was
    /// doing has ended or will end by itself without touching the store.
    /// A second call does nothing.
    func stop()
}

