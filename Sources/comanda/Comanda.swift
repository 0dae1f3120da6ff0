import ArgumentParser
import ComandaApp
import CSystem
import ComandaCore
import ComandaResources
import ComandaHTTP
import ComandaStore
import Dispatch
import Foundation
import Logging

/// The `comanda` command line: `serve` and the maintenance subcommands.
@main
struct Comanda: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comanda",
        abstract: "A restaurant server: the menu, orders, users and the walk-in waitlist.",
        subcommands: [Serve.self, ImportPlatos.self, CreateStaff.self, CreateHost.self, Backup.self, Restaurar.self, Verifactu.self, OpenAPI.self],
        defaultSubcommand: Serve.self
    )
}

/// Options every subcommand shares: where the configuration and database are.
struct CommonOptions: ParsableArguments {
    @Option(help: "The configuration file (JSON). Env: COMANDA_CONFIG.")
    var config: String?

    @Option(help: "The SQLite database file. Env: COMANDA_DATABASE.")
    var database: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. Env: COMANDA_LOG_LEVEL.")
    var logLevel: String?

    @Option(help: "The menu imported on the first start (default Config/platos.json). Env: COMANDA_PLATOS.")
    var platos: String?

    /// Loads the configuration with these flags on top; exits with one line on error.
    func load(extraFlags: [(key: String, value: String)] = []) -> AppConfiguration {
        let env = ProcessInfo.processInfo.environment
        let explicit = config ?? env["COMANDA_CONFIG"]
        let file = explicit ?? ResourceLocator().find(AppConfiguration.defaultConfigFile) ?? AppConfiguration.defaultConfigFile
        var flags = extraFlags
        if let database { flags.append(("database", database)) }
        if let logLevel { flags.append(("logLevel", logLevel)) }
        if let platos { flags.append(("platos", platos)) }
        do {
            return try AppConfiguration.load(file: file, fileRequired: explicit != nil, builtIn: BuiltIn.configuration,
                                             environment: env, flags: flags)
        } catch {
            fail(error.description)
        }
    }

    /// Opens the configured database, saying which file (its absolute path)
    /// and whether it was just created; exits with one line in plain words
    /// when it cannot be opened, is not a database, or cannot be written.
    /// `mustExist`: a command that reads what is there (a backup, a check) never makes an empty database
    /// and reports on it: a file that is not there is said, with where it was looked for.
    /// `orCreate`: a command that may make it on purpose (`--crear`) says how when it is not there.
    func openDatabase(_ configuration: AppConfiguration, logger: Logger? = nil, mustExist: Bool = false,
                      orCreate: String? = nil) -> AppDatabase {
        let path = URL(fileURLWithPath: configuration.database).standardizedFileURL.path
        let existed = FileManager.default.fileExists(atPath: path)
        if mustExist && !existed {
            fail("no hay ninguna base de datos en \(path): ejecútelo donde está la base de datos, o indique --database ARCHIVO (o COMANDA_DATABASE)"
                 + (orCreate.map { "; \($0)" } ?? ""))
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            fail("no se puede abrir la base de datos \(path): es una carpeta, no un archivo")
        }
        let database: AppDatabase
        do { database = try AppDatabase.open(path: configuration.database, synchronous: configuration.synchronous) } catch {
            fail("no se puede abrir la base de datos \(path): \(Self.plainWords(error.description, path: path, existed: existed))")
        }
        do { try database.checkWritable() } catch {
            fail("no se puede escribir en la base de datos \(path) (ni en sus archivos -wal y -shm): \(Self.plainWords(error.description, path: path, existed: true))")
        }
        if existed {
            logger?.notice("database \(path)")
        } else if let logger {
            logger.notice("database \(path): a new one, created now (no staff, a new host key)")
        } else {
            // A command run in the wrong folder must not seem to have worked on the restaurant's database.
            FileHandle.standardError.write(Data("comanda: no había ninguna base de datos en \(path): se ha creado una nueva (para usar la del restaurante, ejecútelo donde está o indique --database ARCHIVO)\n".utf8))
        }
        return database
    }

    /// SQLite's codes as a person would say them.
    static func plainWords(_ error: String, path: String, existed: Bool) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if error.contains("SQLite error 26") || error.contains("not a database") { return "el archivo no es una base de datos SQLite" }
        if error.contains("SQLite error 14") || error.contains("unable to open") {
            return existed ? "no se puede abrir el archivo (revise sus permisos)"
                           : "no se puede crear el archivo (¿existe la carpeta \(folder) y se puede escribir en ella?)"
        }
        if error.contains("SQLite error 8") || error.contains("readonly") || error.contains("read-only") {
            return "el archivo, o la carpeta \(folder) que guarda sus archivos -wal y -shm, es de solo lectura"
        }
        if error.contains("SQLite error 11") || error.contains("malformed") { return "el archivo está dañado (restaure una copia: docs/OPERATIONS.md)" }
        return error
    }
}

/// Prints `comanda: LINE` on standard error and exits 1.
func fail(_ line: String) -> Never {
    FileHandle.standardError.write(Data("comanda: \(line)\n".utf8))
    Foundation.exit(1)
}

/// `comanda serve`: runs the HTTP server until SIGTERM or SIGINT.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server (the default subcommand).",
        discussion: """
            Every setting comes from the configuration file (--config), the environment or a flag (a flag beats \
            the environment, which beats the file); the README's Configuration table says what each means. \
            Those that matter most: COMANDA_ZONA_HORARIA, COMANDA_NOMBRE_RESTAURANTE, COMANDA_EMPRESA_NIF, \
            COMANDA_URL_PUBLICA, COMANDA_COPIAS_CARPETAS, COMANDA_VERIFACTU_ENVIO. All of them:

            """ + AppConfiguration.environmentVariables.joined(separator: ", ")
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "Address to listen on (0.0.0.0 for the whole network). Env: COMANDA_HOST.")
    var host: String?

    @Option(help: "Port to listen on (default 8080). Env: COMANDA_PORT.")
    var port: String?

    @Option(name: .customLong("public"), help: "Folder of static pages (default Public). Env: COMANDA_PUBLIC.")
    var publicFolder: String?

    func run() throws {
        // Freed memory kept (up to 64 MiB) rather than handed back to the
        // kernel after each burst and faulted in again: under a steady load
        // of writes that was 4-5% of the server's time (madvise and page
        // faults; docs/PERFORMANCE.md, "Group commit").
        comanda_malloc_keep_freed(64 << 20)
        var flags: [(key: String, value: String)] = []
        if let host { flags.append(("host", host)) }
        if let port { flags.append(("port", port)) }
        if let publicFolder { flags.append(("public", publicFolder)) }
        let configuration = common.load(extraFlags: flags)
        // The log's times in the restaurant's zone, as the pages show them (every time the code
        // shows is in an explicit zone; only the log's timestamps follow the process's).
        setenv("TZ", configuration.zonaHoraria, 1)
        tzset()
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "comanda")
        let locator = ResourceLocator()
        switch configuration.pages(locator) {
        case .folder(let path): logger.info("pages from \(path)")
        case .builtIn: logger.info("pages: the ones built into the binary (no Public folder here or beside it)")
        case .none(let why): logger.warning("\(why)")
        }
        // The port first: one in use stops start-up before the disk is touched.
        let listener: HTTPServer.Listener
        do throws(SocketError) { listener = try HTTPServer.listen(configuration.http) } catch { fail(error.description) }
        // One server per database file (a restore refuses while it is held): taken
        // before the file is opened (a new one, just after it is made).
        let databasePath = URL(fileURLWithPath: configuration.database).standardizedFileURL.path
        @Sendable func lock() {
            do {
                guard try AppDatabase.Cerrojo.tomar(databasePath) else {
                    fail("otro comanda está sirviendo \(databasePath): párelo antes (systemctl stop comanda); no se ha tocado el archivo")
                }
            } catch {
                fail(error.description)
            }
        }
        let existed = FileManager.default.fileExists(atPath: databasePath)
        if existed { lock() }
        let database = common.openDatabase(configuration, logger: logger)
        if !existed { lock() }
        let menu = configuration.menu(locator)
        let menuName: String
        switch menu {
        case .file(let path): menuName = path
        case .builtIn: menuName = "the built-in house menu"
        }
        do {
            switch try MenuImport.importOnFirstStart(menu, into: database) {
            case .imported(let inserted, _)?:
                logger.notice("imported \(inserted) dishes from \(menuName) (first start)")
            case .alreadyImported?:
                break
            case nil:
                logger.warning("no menu: \(configuration.platosFile) does not exist; the menu is empty until `comanda import-platos FILE`")
            }
        } catch {
            fail(error.description)
        }
        let application = ComandaApplication(configuration: configuration, database: database, logger: logger, locator: locator)
        let server = HTTPServer(configuration: configuration.http, responder: application,
                                logger: Logger(label: "comanda.http"), observer: application.metrics)
        application.metrics.observeConnections { [weak server] in server?.connectionCount ?? 0 }
        application.metrics.observeStreams { [weak server] in server?.streamCount ?? 0 }
        // The socket is bound and listening already: say so (and the host app's
        // address) before the first request can be answered, so whoever reads
        // the log after a first answer finds them.
        let port = listener.port
        logger.notice("comanda listening on http://\(configuration.http.host):\(port) (\(configuration.http.workers) workers)")
        let http = configuration.http
        let trusted = http.trustedAddresses.isEmpty ? "none" : http.trustedAddresses.joined(separator: ", ")
        logger.notice("limits per client address: \(http.maxConnectionsPerClient == 0 ? "no connection limit" : "\(http.maxConnectionsPerClient) connections"), bodies at least \(http.minBodyBytesPerSecond) B/s after \(http.bodyRateGracePeriod) s; trusted (no connection limit, X-Forwarded-For believed): \(trusted)")
        let everywhere = ["0.0.0.0", "::", "[::]"].contains(configuration.http.host)
        let hostAddress = everywhere ? "THIS-MACHINE-ADDRESS" : configuration.http.host
        for line in configuration.startLines(now: Int64(Date().timeIntervalSince1970)) { logger.notice("\(line)") }
        logger.notice("\(configuration.verifactuLogLine(now: Int64(Date().timeIntervalSince1970)))")
        if let printers = try? database.impresoras() {
            logger.notice("\(printers.isEmpty ? "printers: none (add them on /gestion, Impresoras)" : "printers: " + printers.map { p in "\(p.impresora.nombre) at \(p.impresora.host):\(p.impresora.puerto)" + (p.pendientes > 0 ? " (\(p.pendientes) jobs waiting)" : "") }.joined(separator: ", "))")
        }
        logger.notice("RestaurantQueue host app base URL: http://\(hostAddress):\(port)\(application.queueHostPath)")
        // The signals are handled before the first request can be answered: a
        // SIGTERM sent once /health answers is never lost between ignoring it
        // and listening for it.
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler {
                logger.notice("signal \(sig): finishing in-flight requests, then stopping")
                server.shutdown {
                    // The background services end before the store closes with the process.
                    application.stop()
                    logger.notice("stopped")
                    Foundation.exit(0)
                }
            }
            source.resume()
            SignalSources.keep(source)
        }
        do throws(SocketError) { _ = try server.start(listener: listener) } catch { fail(error.description) }
        // After the routes, once the server answers: the checkpointer, the sweeps, the helper threads.
        application.start()
        dispatchMain()
    }
}

/// `comanda import-platos FILE`: loads a menu on purpose (upsert by `nombre`).
struct ImportPlatos: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-platos",
        abstract: "Import dishes from a platos.json file (upsert by nombre, all or nothing)."
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: "The JSON file: an array of {nombre, descripcion, precio, tipo}.")
    var file: String

    @Flag(help: "Make the database if it is not there (otherwise a missing database is refused: the command was run in the wrong place).")
    var crear = false

    func run() throws {
        let configuration = common.load()
        let database = common.openDatabase(configuration, mustExist: !crear, orCreate: "--crear crea una nueva ahí")
        do {
            let started = ContinuousClock.now
            let result = try MenuImport.importFile(file, into: database)
            let elapsed = ContinuousClock.now - started
            if case .imported(let inserted, let updated) = result {
                print("importado \(file): \(inserted) platos nuevos, \(updated) actualizados, en \(elapsed.formatted(.units(allowed: [.milliseconds])))")
            }
        } catch {
            fail(error.description)
        }
    }
}

/// Keeps signal sources alive for the life of the process.
enum SignalSources {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    static func keep(_ source: any DispatchSourceSignal) { sources.append(source) }
}

/// `comanda create-staff LOGIN --rol ROL`: creates a staff user, or changes an existing user's role.
struct CreateStaff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-staff",
        abstract: "Create a staff user (password from standard input or --password-file), or change an existing user's role."
    )

    @OptionGroup var account: StaffAccountOptions

    @Option(help: "The role: anfitrion (host), camarero (waiter), cocina (kitchen), gerente (manager), or cliente (take staff rights away).")
    var rol: String

    func run() throws {
        guard let role = Rol(rawValue: rol.lowercased()) else {
            fail("puesto desconocido \(rol.debugDescription): tiene que ser uno de \(Rol.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        account.run(rol: role)
    }
}

/// `comanda create-host LOGIN`: the same as `create-staff LOGIN --rol anfitrion`.
struct CreateHost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-host",
        abstract: "Create a host (role anfitrion) with a password from standard input or --password-file, or promote an existing user."
    )

    @OptionGroup var account: StaffAccountOptions

    func run() throws { account.run(rol: .anfitrion) }
}

/// What `create-staff` and `create-host` share: the login, name, password source, and the work.
struct StaffAccountOptions: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @Argument(help: "The staff member's login.")
    var login: String

    @Option(help: "The display name of a new user (default: the login).")
    var nombre: String?

    @Option(help: "A file whose first line is the password (default: asked on the terminal, twice and unseen, or read from standard input).")
    var passwordFile: String?

    @Flag(help: "For an existing user: set the password given (and log their devices out).")
    var resetPassword = false

    @Flag(help: "Make the database if it is not there: the first manager before the server's first start (otherwise a missing database is refused: the command was run in the wrong place).")
    var crear = false

    func run(rol: Rol) {
        let configuration = common.load()
        let database = common.openDatabase(configuration, mustExist: !crear,
                                           orCreate: "--crear crea una nueva ahí (el primer gerente antes del primer arranque)")
        do {
            switch try StaffAccounts.promote(login: login, rol: rol, in: database) {
            case .promoted(let usuario):
                print("\(usuario.login) tiene ahora el puesto \(rol.rawValue)")
                if resetPassword {
                    try StaffAccounts.resetPassword(login: login, password: readPassword(), configuration: configuration, in: database)
                    print("\(usuario.login): contraseña nueva puesta; sus dispositivos han salido")
                } else if passwordFile != nil || isatty(0) == 0 {
                    print("\(usuario.login) ya existe: no se ha cambiado la contraseña (--reset-password la cambia)")
                }
                return
            case .noSuchUser:
                break
            }
            let password = readPassword()
            let usuario = try StaffAccounts.create(login: login, nombre: nombre ?? login, password: password, rol: rol,
                                                   configuration: configuration, in: database)
            print("creado \(usuario.login) (id \(usuario.id)) con el puesto \(rol.rawValue)")
        } catch {
            fail("\(error)")
        }
    }

    private func readPassword() -> String {
        let text: String?
        if let passwordFile {
            text = (try? String(contentsOfFile: passwordFile, encoding: .utf8))?.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
        } else if isatty(0) == 1 {
            // A person at a terminal: asked twice, nothing shown as they type.
            let first = Self.unseen("Contraseña para \(login): ")
            let second = Self.unseen("Repítala: ")
            guard first == second else { fail("las dos contraseñas no son iguales; no se ha cambiado nada") }
            text = first
        } else {
            text = readLine(strippingNewline: true)
        }
        guard let text, !text.isEmpty else { fail("no se ha dado ninguna contraseña (entrada estándar o --password-file)") }
        return text
    }

    /// Reads a line from the terminal with its echo off.
    private static func unseen(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(0, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
        }
        let line = readLine(strippingNewline: true)
        if hasTerminal { tcsetattr(0, TCSANOW, &saved) }
        FileHandle.standardError.write(Data("\n".utf8))
        return line
    }
}

/// `comanda backup FILE`: a consistent online copy of the database.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the database to a new file while the server keeps running (SQLite's backup API)."
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: "The new file to write (it must not exist).")
    var file: String

    func run() throws {
        let configuration = common.load()
        let database = common.openDatabase(configuration, mustExist: true)
        do {
            let resumen = try database.backup(to: file, zone: TimeZone(identifier: configuration.zonaHoraria) ?? .current)
            print("copiada \(configuration.database) en \(file) (integridad: bien; \(resumen.facturas) facturas, "
                  + "\(resumen.registros) registros de facturación, cadena íntegra)")
        } catch {
            fail(error.description)
        }
    }
}

/// `comanda restaurar COPIA`: puts a backup back as the database.
struct Restaurar: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a backup as the database: refused while a server holds it; the copy is checked first; the current file is kept aside, never deleted."
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: "The copy to restore (a file made by `comanda backup` or the server's copias).")
    var copia: String

    /// What is wrong with a copy, as the person at the terminal reads it (the server's log says it in English).
    static func copiaEnPalabras(_ text: String) -> String {
        if text.hasPrefix("cannot read ") { return "no se puede leer" }
        if text.contains("integrity check") { return "está dañada (no pasa la comprobación de integridad)" }
        if text.contains("not a comanda database") { return "no es una base de datos de comanda" }
        if text.contains("not a SQLite database") { return "el archivo no es una base de datos SQLite" }
        if let from = text.range(of: "billing chain is broken from record ") {
            let rest = text[from.upperBound...].prefix { $0.isNumber }
            return "su cadena de registros de facturación está rota desde el registro \(rest)"
        }
        return text
    }

    func run() throws {
        let configuration = common.load()
        let target = URL(fileURLWithPath: configuration.database).standardizedFileURL.path
        let source = URL(fileURLWithPath: copia).standardizedFileURL.path
        guard source != target else { fail("la copia \(source) es la propia base de datos") }
        let zone = TimeZone(identifier: configuration.zonaHoraria) ?? .current
        // The copy first: a damaged one is refused before anything is touched.
        let resumen: ResumenCopia
        do { resumen = try AppDatabase.comprobarCopia(source, zone: zone) } catch {
            fail("la copia \(source) no se puede restaurar: \(Self.copiaEnPalabras(error.description)); no se ha cambiado nada")
        }
        let fm = FileManager.default
        var aside: String?
        if fm.fileExists(atPath: target) {
            // Held until the process ends: a server started meanwhile is refused.
            do {
                guard try AppDatabase.Cerrojo.tomar(target) else {
                    fail("un servidor comanda está sirviendo \(target): párelo antes (systemctl stop comanda); no se ha cambiado nada")
                }
            } catch {
                fail(error.description)
            }
            let stamp = Copias.nombre(Int64(Date().timeIntervalSince1970), zone: zone).dropFirst(8).dropLast(7)
            let kept = target + ".antes-de-restaurar-" + stamp
            // The file with its -wal and -shm (what the -wal holds is part of it): renamed, never deleted.
            for suffix in ["", "-wal", "-shm"] where fm.fileExists(atPath: target + suffix) {
                guard rename(target + suffix, kept + suffix) == 0 else {
                    fail("no se puede apartar \(target + suffix) como \(kept + suffix): \(String(cString: strerror(errno))); no se ha restaurado nada")
                }
            }
            aside = kept
        }
        let partial = target + ".restaurando"
        do {
            try? fm.removeItem(atPath: partial)
            try fm.copyItem(atPath: source, toPath: partial)
            chmod(partial, 0o600)
            let fd = open(partial, O_RDONLY)
            if fd >= 0 { fsync(fd); close(fd) }
            guard rename(partial, target) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? fm.removeItem(atPath: partial)
            if let aside { for suffix in ["", "-wal", "-shm"] { _ = rename(aside + suffix, target + suffix) } }
            fail("no se puede escribir \(target): \(error.localizedDescription); la base de datos se ha quedado como estaba")
        }
        let made = Copias.leer((source as NSString).lastPathComponent).flatMap { Copias.instante($0.sello, zone: zone) }
            ?? ((try? fm.attributesOfItem(atPath: source)[.modificationDate] as? Date).map { Int64($0.timeIntervalSince1970) } ?? 0)
        print("restaurada \(source) (hecha el \(LocalTime.dayAndMinute(made, zone: zone))) como \(target): "
              + "\(resumen.facturas) facturas, \(resumen.registros) registros de facturación (cadena íntegra)"
              + (resumen.ultimaFactura.map { ", la última factura \($0)" + (resumen.fechaUltimaFactura.map { " del \($0)" } ?? "") } ?? ", ninguna factura"))
        if let aside { print("la base de datos que había se guarda como \(aside)") }
        print("arranque el servidor (systemctl start comanda): pone al día la copia si es de un comanda anterior")
    }
}

struct Verifactu: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "VERI*FACTU billing records: `verificar` recomputes the whole chain; `declaracion` prints the producer's declaration.",
        subcommands: [Verificar.self, Declaracion.self]
    )

    struct Declaracion: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the producer's declaration of conformity (declaración responsable) for this version, with the configured producer."
        )

        @OptionGroup var common: CommonOptions

        func run() throws {
            FileHandle.standardOutput.write(Data(common.load().verifactuDeclaracion.utf8))
        }
    }

    struct Verificar: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute every billing record's Huella from its fields and the one before; exit 1 at the first that does not match."
        )

        @OptionGroup var common: CommonOptions

        func run() throws {
            let configuration = common.load()
            let path = URL(fileURLWithPath: configuration.database).standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: path) else {
                fail("no hay ninguna base de datos en \(path): ejecútelo donde está la base de datos, o indique --database ARCHIVO (o COMANDA_DATABASE)")
            }
            do {
                // Read-only, never migrated: a backup is checked as it is and nothing is left beside it.
                let (count, firstBad) = try AppDatabase.verificarCadena(archivo: path)
                if let firstBad {
                    print("registro \(firstBad): la huella no coincide; la cadena está rota desde ahí (\(count) registros leídos)")
                    throw ExitCode(1)
                }
                print("\(count) registros: cadena íntegra")
            } catch let exit as ExitCode {
                throw exit
            } catch {
                fail("no se puede comprobar \(path): \(CommonOptions.plainWords("\(error)", path: path, existed: true))")
            }
        }
    }
}

/// `comanda openapi`: prints the API's OpenAPI 3.1 description as the routes
/// say it, for the default settings (`docs/openapi.json` is this output).
struct OpenAPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the API's OpenAPI 3.1 description (docs/openapi.json), as the routes describe themselves."
    )

    func run() throws {
        var logger = Logger(label: "comanda")
        logger.logLevel = .critical
        let database: AppDatabase
        do { database = try AppDatabase.inMemory() } catch { fail("cannot make the routes: \(error.description)") }
        let app = ComandaApplication(configuration: AppConfiguration(), database: database, logger: logger)
        FileHandle.standardOutput.write(Data(app.openAPIDocument.utf8))
    }
}
