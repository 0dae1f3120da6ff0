import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation
import Logging

/// A setting that cannot be used, said in one line: which one, from where, and why.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// The line to print.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Everything `comanda serve` is configured with. Each setting comes from the
/// configuration file, an environment variable, or a flag; flags beat the
/// environment, which beats the file, which beats the defaults.
public struct AppConfiguration: Sendable, Equatable {
    /// The HTTP server's settings (host, port, limits, timeouts).
    public var http = HTTPServerConfiguration()
    /// The SQLite database file.
    public var database = "comanda.sqlite"
    /// `full` (default): commits survive a power cut; `normal`: only the process being killed.
    public var synchronous: AppDatabase.Synchronous = .full
    /// The folder static pages are served from.
    public var publicFolder = "Public"
    /// The minimum level logged; `info` logs one line per request.
    public var logLevel: Logger.Level = .info
    /// The menu imported on the first start with an empty database.
    public var platosFile = "Config/platos.json"
    /// Days a login token stays valid.
    public var tokenLifetimeDays = 30
    /// Failed logins for one login, within `lockoutMinutes`, before 429.
    public var maxFailedLogins = 10
    /// Failed logins from one client address, whatever the login, within `lockoutMinutes`, before 429.
    public var maxFailedLoginsPerAddress = 50
    /// The lock-out window in minutes.
    public var lockoutMinutes = 15
    /// Logins (and registrations) waiting for a password hash at most; one more is 503 with `Retry-After`.
    public var maxWaitingLogins = 64
    /// Long reads (the kitchen's board, reports over days) waiting for a thread at most; one more is 503.
    public var maxWaitingReads = 64
    /// Hash passwords only in the cores' idle time (`SCHED_IDLE`), so that a
    /// login flood cannot slow anything else; false: at the batch priority
    /// of the other helper threads (the tests, whose many suites keep every
    /// core busy at once).
    public var hashInIdleTime = true
    /// The waitlist's default quote: minutes for each party of the band ahead, plus that once more.
    public var minutosPorGrupo = 10
    /// A table link's writes (dishes, asking for the bill) that may come at once before one a second is the pace.
    public var rafagaEnlace = 10
    /// log2 of scrypt's cost for new password hashes (stored with each hash).
    public var scryptLogN = 15
    /// Where the legacy RestaurantQueue feed is mounted.
    public var queuePath = "/queue"
    /// The legacy host app's secret key; nil: generated on first start and kept in the database.
    public var queueHostKey: String?
    /// The restaurant's time zone (an IANA name) for tickets and the report's days; default `TZ`, else UTC.
    public var zonaHoraria = "UTC"
    /// When the business day closes (`cierreDia`, "HH:MM", default 00:00), in
    /// minutes after midnight: the reports' and invoices' days run from it to it.
    public var cierreDia = 0
    /// The company that issues the invoices (`empresa` in the file: `{"nif",
    /// "razonSocial", "direccion"}`); without a NIF, payments are refused.
    public var empresaNif: String?
    public var empresaRazonSocial = ""
    public var empresaDireccion = ""
    /// VERI*FACTU (`verifactu` in the file: `{"envio", "url", "certificado",
    /// "clave", "ca", "productor": {"nif", "nombre", "direccion"}}`): where the billing
    /// records are sent (`no`: nowhere), the service's address (default:
    /// the environment's), the PKCS#12 certificate and its password, the
    /// authorities trusted for the service (default: the system's), and the
    /// system's producer (default: the company itself).
    public var verifactuEnvio = Verifactu.Envio.no
    public var verifactuUrl: String?
    public var verifactuCertificado: String?
    public var verifactuClave: String?
    public var verifactuCa: String?
    public var verifactuProductorNif: String?
    public var verifactuProductorNombre: String?
    /// The producer's postal address, for the declaration (default: the company's when it is the producer).
    public var verifactuProductorDireccion: String?

    /// The certificate as read at load (with `envio` other than `no`): its holder and expiry.
    var verifactuCertificadoLeido: CertificadoAEAT?

    /// The producer of the billing system: the one set, else the company.
    var verifactuProductor: (nombre: String, nif: String) {
        (verifactuProductorNombre ?? empresa?.razonSocial ?? "", verifactuProductorNif ?? empresa?.nif ?? "")
    }

    /// The producer's postal address: the one set, else the company's when the company is the producer.
    var verifactuProductorDireccionEfectiva: String? {
        if let set = verifactuProductorDireccion { return set }
        guard verifactuProductorNif == nil || verifactuProductorNif == empresa?.nif, let direccion = empresa?.direccion, !direccion.isEmpty else { return nil }
        return direccion
    }

    /// The producer as the declaration names it.
    var verifactuDeclaracionProductor: VerifactuDeclaracion.Productor {
        let p = verifactuProductor
        return VerifactuDeclaracion.Productor(nombre: p.nombre, nif: p.nif, direccion: verifactuProductorDireccionEfectiva)
    }

    /// The producer's declaration of conformity for this version, as text.
    public var verifactuDeclaracion: String { VerifactuDeclaracion.texto(verifactuDeclaracionProductor) }

    /// What the start-up log says of the sending, in one line.
    public func verifactuLogLine(now: Int64) -> String {
        guard verifactuEnvio != .no, let url = verifactuServicio else {
            return "VERI*FACTU: billing records are kept but not sent to the AEAT (verifactu.envio no)"
        }
        var line = "VERI*FACTU: billing records sent to the AEAT (\(verifactuEnvio.rawValue)) at \(url)"
        if let cert = verifactuCertificadoLeido {
            let expiry = Date(timeIntervalSince1970: TimeInterval(cert.caduca)).formatted(.iso8601)
            line += ", certificate of \(cert.titular)\(cert.nif.map { " (\($0))" } ?? "")"
            line += cert.caduca <= now ? " EXPIRED on \(expiry): the AEAT will refuse it, renew it" : ", valid until \(expiry)"
        }
        return line
    }

    /// The service's address: the one set, else the environment's (nil with `envio` `no`).
    public var verifactuServicio: String? { verifactuEnvio == .no ? nil : verifactuUrl ?? verifactuEnvio.url }

    /// The restaurant's name, on the guests' pages (`GET /ajustes`).
    public var nombreRestaurante = "comanda"
    /// The start of the absolute links printed for guests (the tables' QR
    /// codes), e.g. `https://casa-pepe.es`; nil: `http://` and the request's `Host`.
    public var urlPublica: String?
    /// The invoices' series: `T` gives `T2026-000001`.
    public var serieFacturas = "T"
    /// The full invoices' series (F1 and F3), a sequence of its own: `F` gives `F2026-000001`.
    public var serieFacturasCompletas = "F"
    /// How long a printer with a backup may fail to print a job before the
    /// backup takes it (`impresion.respaldoSegundos`), in seconds.
    public var impresionRespaldoSegundos = 60
    /// The server's own backups (`copias`): the folders (each on another disk
    /// than the database's; none: no copies, and the server says so daily),
    /// the hour in the restaurant's zone, and how many daily and monthly
    /// copies are kept.
    public var copiasCarpetas: [String] = []
    public var copiasHora = Copias.Hora.porDefecto
    public var copiasDiarias = 30
    public var copiasMensuales = 72
    /// The categories' descriptions and menu order (file only: `"categorias"`).
    public var categorias: [CategoriaConfig] = []

    /// The defaults: the photo route may carry `maxPhotoBytes` (5 MiB), every other 1 MiB.
    public init() {
        http.limits.allowances = [Self.photoAllowance(5 * 1024 * 1024)]
    }

    static func photoAllowance(_ bytes: Int) -> HTTPLimits.BodyAllowance {
        HTTPLimits.BodyAllowance(method: .PUT, pattern: "/platos/:id/foto", maxBytes: bytes)
    }

    /// `value` as the start of a public link: `http(s)://host[:port]`, a
    /// trailing slash dropped; nil if it is anything else.
    static func publicURL(_ value: String) -> String? {
        var text = value.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("/") { text.removeLast() }
        let lower = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: { lower.hasPrefix($0) }) else { return nil }
        let host = text.dropFirst(scheme.count)
        guard isHost(host) else { return nil }
        return text
    }

    /// A host name or address, with its port if any (`casa-pepe.es`,
    /// `192.168.1.5:8080`, `[::1]:8080`): letters, digits, `.`, `-`, `:`, `[`, `]`.
    static func isHost(_ host: Substring) -> Bool {
        (1...253).contains(host.utf8.count) && host.utf8.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                || b == 0x2E || b == 0x2D || b == 0x3A || b == 0x5B || b == 0x5D
        }
    }

    /// The company, once it has a NIF.
    public var empresa: Empresa? {
        empresaNif.map { Empresa(nif: $0, razonSocial: empresaRazonSocial, direccion: empresaDireccion) }
    }

    /// `zonaHoraria` as a time zone (UTC if it somehow no longer resolves).
    public var timeZone: TimeZone { TimeZone(identifier: zonaHoraria) ?? TimeZone(secondsFromGMT: 0) ?? .current }

    /// One setting: its key in the file, its environment variable, and how to apply a value.
    struct Setting: Sendable {
        let key: String
        let expected: String
        let apply: @Sendable (inout AppConfiguration, String) -> Bool

        var environmentName: String {
            var out = "COMANDA_"
            for c in key {
                if c.isUppercase { out += "_" }
                out += c.uppercased()
            }
            return out
        }
    }

    static func int(_ key: String, _ range: ClosedRange<Int>, _ set: @escaping @Sendable (inout AppConfiguration, Int) -> Void) -> Setting {
        Setting(key: key, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)") { config, value in
            guard let n = Int(value.trimmingCharacters(in: .whitespaces)), range.contains(n) else { return false }
            set(&config, n)
            return true
        }
    }

    /// A Spanish NIF, NIE or CIF (upper-cased).
    static func nif(_ key: String, _ set: @escaping @Sendable (inout AppConfiguration, String) -> Void) -> Setting {
        Setting(key: key, expected: "a Spanish NIF, NIE or CIF with its check character, such as B12345674") { config, value in
            let nif = value.trimmingCharacters(in: .whitespaces).uppercased()
            guard Empresa.nifValido(nif) else { return false }
            set(&config, nif)
            return true
        }
    }

    /// A name or address a person reads: trimmed, `lengths` characters, nothing forbidden.
    static func text(_ key: String, _ what: String, _ lengths: ClosedRange<Int>,
                     _ set: @escaping @Sendable (inout AppConfiguration, String) -> Void) -> Setting {
        Setting(key: key, expected: "\(what), \(lengths.lowerBound) to \(lengths.upperBound) characters") { config, value in
            let text = value.trimmingCharacters(in: .whitespaces)
            guard TextRules.fits(text, lengths), !TextRules.hasForbiddenScalar(text) else { return false }
            set(&config, text)
            return true
        }
    }

    /// A file's path.
    static func path(_ key: String, _ what: String, _ set: @escaping @Sendable (inout AppConfiguration, String) -> Void) -> Setting {
        Setting(key: key, expected: "the path of \(what)") { config, value in
            guard !value.isEmpty, !TextRules.hasForbiddenScalar(value) else { return false }
            set(&config, value)
            return true
        }
    }

    static func seconds(_ key: String, _ set: @escaping @Sendable (inout AppConfiguration, Double) -> Void) -> Setting {
        Setting(key: key, expected: "a number of seconds from 0.05 to 86400") { config, value in
            guard let n = Double(value.trimmingCharacters(in: .whitespaces)), n.isFinite, n >= 0.05, n <= 86400 else { return false }
            set(&config, n)
            return true
        }
    }

    static func text(_ key: String, _ set: @escaping @Sendable (inout AppConfiguration, String) -> Void) -> Setting {
        Setting(key: key, expected: "a non-empty text") { config, value in
            guard !value.trimmingCharacters(in: .whitespaces).isEmpty, !value.contains("\0") else { return false }
            set(&config, value)
            return true
        }
    }

    /// Every setting, in the order `--help` and the docs list them.
    static let settings: [Setting] = [
        text("host") { $0.http.host = $1 },
        int("port", 0...65535) { $0.http.port = $1 },
        text("database") { $0.database = $1 },
        Setting(key: "synchronous", expected: "normal or full") { config, value in
            guard let mode = AppDatabase.Synchronous(rawValue: value.trimmingCharacters(in: .whitespaces).uppercased()) else {
                return false
            }
            config.synchronous = mode
            return true
        },
        text("public") { $0.publicFolder = $1 },
        text("platos") { $0.platosFile = $1 },
        Setting(key: "logLevel", expected: "one of trace, debug, info, notice, warning, error, critical") { config, value in
            guard let level = Logger.Level(rawValue: value.lowercased()) else { return false }
            config.logLevel = level
            return true
        },
        int("maxRequestLineBytes", 256...(1 << 20)) { $0.http.limits.maxRequestLineBytes = $1 },
        int("maxHeaderBytes", 1024...(1 << 20)) { $0.http.limits.maxHeaderBytes = $1 },
        int("maxBodyBytes", 1024...(1 << 30)) { $0.http.limits.maxBodyBytes = $1 },
        int("maxPhotoBytes", 1024...(64 << 20)) { $0.http.limits.allowances = [photoAllowance($1)] },
        seconds("headerTimeout") { $0.http.headerTimeout = $1 },
        seconds("idleTimeout") { $0.http.idleTimeout = $1 },
        int("maxConnections", 1...1_000_000) { $0.http.maxConnections = $1 },
        seconds("streamHeartbeatSeconds") { $0.http.streamHeartbeatInterval = $1 },
        seconds("streamMaxSeconds") { $0.http.streamMaxDuration = $1 },
        int("streamBufferBytes", 4096...(64 << 20)) { $0.http.streamBufferLimit = $1 },
        int("backlog", 16...65535) { $0.http.backlog = $1 },
        int("workers", 1...256) { $0.http.workers = $1 },
        int("tokenLifetimeDays", 1...3650) { $0.tokenLifetimeDays = $1 },
        int("maxFailedLogins", 1...1000) { $0.maxFailedLogins = $1 },
        int("maxFailedLoginsPerAddress", 1...100_000) { $0.maxFailedLoginsPerAddress = $1 },
        int("lockoutMinutes", 1...1440) { $0.lockoutMinutes = $1 },
        int("maxWaitingLogins", 1...10_000) { $0.maxWaitingLogins = $1 },
        int("maxWaitingReads", 0...10_000) { $0.maxWaitingReads = $1 },
        Setting(key: "hashInIdleTime", expected: "true or false") { config, value in
            switch value.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true": config.hashInIdleTime = true
            case "false": config.hashInIdleTime = false
            default: return false
            }
            return true
        },
        int("maxConnectionsPerClient", 0...1_000_000) { $0.http.maxConnectionsPerClient = $1 },
        Setting(key: "trustedAddresses", expected: "addresses separated by commas (IPv4 or IPv6), or none") { config, value in
            let list = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard list.allSatisfy({ address in address.utf8.count <= 45
                && address.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0)
                    || $0 == 0x2E || $0 == 0x3A } }) || value.trimmingCharacters(in: .whitespaces) == "none" else { return false }
            config.http.trustedAddresses = value.trimmingCharacters(in: .whitespaces) == "none" ? [] : list
            return true
        },
        int("minBodyBytesPerSecond", 0...(1 << 30)) { $0.http.minBodyBytesPerSecond = $1 },
        seconds("bodyRateGraceSeconds") { $0.http.bodyRateGracePeriod = $1 },
        int("minutosPorGrupo", 1...240) { $0.minutosPorGrupo = $1 },
        int("rafagaEnlace", 1...1000) { $0.rafagaEnlace = $1 },
        int("scryptLogN", 10...20) { $0.scryptLogN = $1 },
        Setting(key: "queuePath", expected: "a path like /queue (letters, digits, - and _ between slashes)") { config, value in
            let segments = value.split(separator: "/", omittingEmptySubsequences: false)
            guard value.hasPrefix("/"), segments.count >= 2, segments.dropFirst().allSatisfy({ segment in
                !segment.isEmpty && segment.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0)
                    || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            }) else { return false }
            config.queuePath = value
            return true
        },
        Setting(key: "zonaHoraria", expected: "an IANA time zone name such as Europe/Madrid") { config, value in
            var name = value.trimmingCharacters(in: .whitespaces)
            if name.hasPrefix(":") { name.removeFirst() }
            guard !name.isEmpty, TimeZone(identifier: name) != nil else { return false }
            config.zonaHoraria = name
            return true
        },
        Setting(key: "cierreDia", expected: "a time HH:MM from 00:00 to 23:59 (when the business day closes)") { config, value in
            let parts = value.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
                  let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m) else { return false }
            config.cierreDia = h * 60 + m
            return true
        },
        nif("empresaNif") { $0.empresaNif = $1 },
        text("empresaRazonSocial", "the company's name", 1...120) { $0.empresaRazonSocial = $1 },
        text("empresaDireccion", "the company's address", 1...200) { $0.empresaDireccion = $1 },
        Setting(key: "verifactuEnvio", expected: "no, pruebas or produccion") { config, value in
            guard let envio = Verifactu.Envio(rawValue: value.trimmingCharacters(in: .whitespaces)) else { return false }
            config.verifactuEnvio = envio
            return true
        },
        Setting(key: "verifactuUrl", expected: "the service's https:// address") { config, value in
            let url = value.trimmingCharacters(in: .whitespaces)
            guard url.hasPrefix("https://"), url.count > 8, url.utf8.count <= 500,
                  url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else { return false }
            config.verifactuUrl = url
            return true
        },
        path("verifactuCertificado", "a PKCS#12 file (.p12 or .pfx)") { $0.verifactuCertificado = $1 },
        Setting(key: "verifactuClave", expected: "the certificate file's password") { config, value in
            guard !TextRules.hasForbiddenScalar(value) else { return false }
            config.verifactuClave = value
            return true
        },
        path("verifactuCa", "a PEM file of certificate authorities") { $0.verifactuCa = $1 },
        nif("verifactuProductorNif") { $0.verifactuProductorNif = $1 },
        text("verifactuProductorNombre", "the producer's name", 1...120) { $0.verifactuProductorNombre = $1 },
        text("verifactuProductorDireccion", "the producer's postal address", 1...250) { $0.verifactuProductorDireccion = $1 },
        text("nombreRestaurante", "the restaurant's name", 1...60) { $0.nombreRestaurante = $1 },
        Setting(key: "urlPublica", expected: "an http:// or https:// address with no path, such as https://casa-pepe.es") { config, value in
            guard let url = AppConfiguration.publicURL(value) else { return false }
            config.urlPublica = url
            return true
        },
        Setting(key: "serieFacturas", expected: "1 to 10 letters, digits, / or -") { config, value in
            guard AppConfiguration.serieValida(value) else { return false }
            config.serieFacturas = value
            return true
        },
        int("impresionRespaldoSegundos", 1...3600) { $0.impresionRespaldoSegundos = $1 },
        Setting(key: "serieFacturasCompletas", expected: "1 to 10 letters, digits, / or - (the full invoices' series)") { config, value in
            guard AppConfiguration.serieValida(value) else { return false }
            config.serieFacturasCompletas = value
            return true
        },
        Setting(key: "copiasCarpetas", expected: "absolute folders separated by : (each on another disk than the database's)") { config, value in
            let folders = value.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard folders.allSatisfy({ $0.hasPrefix("/") && !TextRules.hasForbiddenScalar($0) && $0.utf8.count <= 1000 }) else { return false }
            config.copiasCarpetas = folders
            return true
        },
        Setting(key: "copiasHora", expected: "a time of day, HH:MM (24-hour, the restaurant's zone)") { config, value in
            guard let hora = Copias.Hora(value) else { return false }
            config.copiasHora = hora
            return true
        },
        int("copiasDiarias", 1...3660) { $0.copiasDiarias = $1 },
        int("copiasMensuales", 0...1200) { $0.copiasMensuales = $1 },
        Setting(key: "queueHostKey", expected: "16 to 128 letters, digits, - or _") { config, value in
            guard (16...128).contains(value.utf8.count), value.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F
                || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return false }
            config.queueHostKey = value
            return true
        },
    ]

    /// Where a value came from, for the error line.
    enum Source {
        case file(String), environment(String), flag(String)
        var label: String {
            switch self {
            case .file(let path): return "in \(path)"
            case .environment(let name): return "from \(name)"
            case .flag(let key):
                // The flag as typed: `logLevel` is `--log-level`.
                var flag = ""
                for c in key { flag += c.isUppercase ? "-" + c.lowercased() : String(c) }
                return "from --\(flag)"
            }
        }
    }

    mutating func apply(_ key: String, _ value: String, from source: Source) throws(ConfigurationError) {
        guard let setting = Self.settings.first(where: { $0.key == key }) else {
            throw ConfigurationError("unknown setting '\(key)' \(source.label)")
        }
        guard setting.apply(&self, value) else {
            throw ConfigurationError("invalid setting \(key) = \(value.debugDescription) \(source.label): expected \(setting.expected)")
        }
    }

    /// Loads the configuration: defaults, then the file (if it exists; it must
    /// when `fileRequired`), then `environment`, then `flags` (key → value).
    /// A missing file that is not required is replaced by `builtIn` (the copy in the binary), when given.
    public static func load(file: String, fileRequired: Bool, builtIn: [UInt8]? = nil, environment: [String: String],
                            flags: [(key: String, value: String)]) throws(ConfigurationError) -> AppConfiguration {
        var config = AppConfiguration()
        // The zone's default is the process's TZ (a bad one stops start-up like any setting).
        if let tz = environment["TZ"], !tz.isEmpty { try config.apply("zonaHoraria", tz, from: .environment("TZ")) }
        if FileManager.default.fileExists(atPath: file) {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ConfigurationError("cannot read configuration file \(file)")
            }
            try config.applyFile(Data(data), label: file)
        } else if fileRequired {
            throw ConfigurationError("configuration file \(file) does not exist")
        } else if let builtIn {
            try config.applyFile(Data(builtIn), label: "the built-in Config/comanda.json")
        }
        // A flag beats the environment: a setting given as a flag is not read from the environment at all.
        let flagged = Set(flags.map(\.key))
        for setting in settings where !flagged.contains(setting.key) {
            if let value = environment[setting.environmentName] {
                try config.apply(setting.key, value, from: .environment(setting.environmentName))
            }
        }
        for (key, value) in flags {
            try config.apply(key, value, from: .flag(key))
        }
        try config.checkVerifactu()
        guard config.serieFacturas != config.serieFacturasCompletas else {
            throw ConfigurationError("invalid setting serieFacturasCompletas = \(config.serieFacturasCompletas.debugDescription): it must differ from serieFacturas (each series is numbered on its own)")
        }
        return config
    }

    /// An invoice series: 1…10 letters, digits, `/` or `-`.
    static func serieValida(_ value: String) -> Bool {
        (1...10).contains(value.utf8.count) && value.utf8.allSatisfy { $0 == 0x2D || $0 == 0x2F || (0x30...0x39).contains($0)
            || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// With `envio` other than `no`: the company and a certificate that opens
    /// with its password are needed (an expired one is not refused: the
    /// server keeps invoicing and says so).
    private mutating func checkVerifactu() throws(ConfigurationError) {
        guard verifactuEnvio != .no else { return }
        guard empresa != nil else {
            throw ConfigurationError("invalid setting verifactu.envio \(verifactuEnvio.rawValue): the company (empresa, with its NIF) must be set to send billing records")
        }
        guard let certificado = verifactuCertificado else {
            throw ConfigurationError("invalid setting verifactu.envio \(verifactuEnvio.rawValue): verifactu.certificado (a PKCS#12 file) must be set")
        }
        guard FileManager.default.isReadableFile(atPath: certificado) else {
            throw ConfigurationError("invalid setting verifactu.certificado: cannot read \(certificado)")
        }
        if let ca = verifactuCa, !FileManager.default.isReadableFile(atPath: ca) {
            throw ConfigurationError("invalid setting verifactu.ca: cannot read \(ca)")
        }
        switch CertificadoAEAT.leer(certificado, clave: verifactuClave ?? "") {
        case .success(let read): verifactuCertificadoLeido = read
        case .failure(let error): throw error
        }
    }

    private mutating func applyFile(_ data: Data, label path: String) throws(ConfigurationError) {
        let dict: [String: FileValue]
        do { dict = try JSONDecoder().decode([String: FileValue].self, from: data) } catch {
            throw ConfigurationError("configuration file \(path) is not a JSON object of settings (\(Self.describe(error)))")
        }
        for key in dict.keys.sorted() {
            guard let raw = dict[key] else { continue }
            if key == "categorias" {
                guard case .categorias(let list) = raw else {
                    throw ConfigurationError("invalid setting categorias in \(path): expected an array of {\"tipo\", \"descripcion\"}")
                }
                categorias = list
                continue
            }
            if key == "verifactu" {
                let tree: [String: FileValue.Leaf]?
                switch raw {
                case .tree(let fields): tree = fields
                case .object(let fields): tree = fields.mapValues { .text($0) }
                default: tree = nil
                }
                guard let fields = tree else {
                    throw ConfigurationError("invalid setting verifactu in \(path): expected {\"envio\", \"url\", \"certificado\", \"clave\", \"ca\", \"productor\"}")
                }
                let names = ["envio": "verifactuEnvio", "url": "verifactuUrl", "certificado": "verifactuCertificado", "clave": "verifactuClave",
                             "ca": "verifactuCa"]
                for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
                    switch (field, value) {
                    case ("productor", .object(let producer)):
                        for (part, text) in producer.sorted(by: { $0.key < $1.key }) {
                            guard let setting = ["nif": "verifactuProductorNif", "nombre": "verifactuProductorNombre",
                                                       "direccion": "verifactuProductorDireccion"][part] else {
                                throw ConfigurationError("unknown setting verifactu.productor.\(part) in \(path): expected nif, nombre or direccion")
                            }
                            try apply(setting, text, from: .file(path))
                        }
                    case (_, .text(let text)):
                        guard let setting = names[field] else {
                            throw ConfigurationError("unknown setting verifactu.\(field) in \(path): expected envio, url, certificado, clave, ca or productor")
                        }
                        try apply(setting, text, from: .file(path))
                    default:
                        throw ConfigurationError("invalid setting verifactu.\(field) in \(path): expected a text (productor: {\"nif\", \"nombre\", \"direccion\"})")
                    }
                }
                continue
            }
            if key == "impresion" {
                guard case .object(let fields) = raw else {
                    throw ConfigurationError("invalid setting impresion in \(path): expected {\"respaldoSegundos\"}")
                }
                for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
                    guard field == "respaldoSegundos" else {
                        throw ConfigurationError("unknown setting impresion.\(field) in \(path): expected respaldoSegundos")
                    }
                    try apply("impresionRespaldoSegundos", value, from: .file(path))
                }
                continue
            }
            if key == "copias" {
                let fields: [String: FileValue.Leaf]
                switch raw {
                case .mixed(let f), .tree(let f): fields = f
                case .object(let f): fields = f.mapValues { .text($0) }
                default:
                    throw ConfigurationError("invalid setting copias in \(path): expected {\"carpetas\": [folders], \"hora\", \"diarias\", \"mensuales\"}")
                }
                for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
                    guard let setting = ["carpetas": "copiasCarpetas", "hora": "copiasHora", "diarias": "copiasDiarias",
                                         "mensuales": "copiasMensuales"][field] else {
                        throw ConfigurationError("unknown setting copias.\(field) in \(path): expected carpetas, hora, diarias or mensuales")
                    }
                    switch value {
                    case .list(let folders):
                        guard field == "carpetas", folders.allSatisfy({ !$0.contains(":") }) else {
                            throw ConfigurationError("invalid setting copias.\(field) in \(path): expected \(field == "carpetas" ? "a list of absolute folders, none with a :" : "a text or a number")")
                        }
                        try apply(setting, folders.joined(separator: ":"), from: .file(path))
                    case .text(let text): try apply(setting, text, from: .file(path))
                    case .object:
                        throw ConfigurationError("invalid setting copias.\(field) in \(path): expected a text, a number or (carpetas) a list of folders")
                    }
                }
                continue
            }
            if key == "empresa" {
                guard case .object(let fields) = raw else {
                    throw ConfigurationError("invalid setting empresa in \(path): expected {\"nif\", \"razonSocial\", \"direccion\"}")
                }
                for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
                    guard let setting = ["nif": "empresaNif", "razonSocial": "empresaRazonSocial", "direccion": "empresaDireccion"][field] else {
                        throw ConfigurationError("unknown setting empresa.\(field) in \(path): expected nif, razonSocial or direccion")
                    }
                    try apply(setting, value, from: .file(path))
                }
                continue
            }
            guard case .text(let value) = raw else {
                throw ConfigurationError("invalid setting \(key) in \(path): expected a text or a number")
            }
            try apply(key, value, from: .file(path))
        }
    }

    /// A value in the configuration file: numbers are taken as their text.
    private enum FileValue: Decodable {
        case text(String), categorias([CategoriaConfig]), object([String: String]), tree([String: Leaf]), mixed([String: Leaf]), other

        /// A member of an object of texts and objects of texts (`verifactu`),
        /// or of texts, numbers and lists of texts (`copias`).
        enum Leaf: Decodable {
            case text(String), object([String: String]), list([String])

            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let s = try? c.decode(String.self) { self = .text(s) }
                else if let n = try? c.decode(Int.self) { self = .text(String(n)) }
                else if let l = try? c.decode([String].self) { self = .list(l) }
                else { self = .object(try c.decode([String: String].self)) }
            }
        }

        struct Categoria: Decodable {
            let tipo: String
            let descripcion: String?
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) { self = .text(s) }
            else if let list = try? c.decode([Categoria].self),
                    list.allSatisfy({ !$0.tipo.trimmingCharacters(in: .whitespaces).isEmpty }) {
                self = .categorias(list.map { CategoriaConfig(tipo: $0.tipo, descripcion: $0.descripcion ?? "") })
            }
            else if let fields = try? c.decode([String: String].self) { self = .object(fields) }
            // An object of numbers (`impresion`: {"respaldoSegundos": 30}): taken as their text.
            else if let fields = try? c.decode([String: Int].self) { self = .object(fields.mapValues { String($0) }) }
            else if let fields = try? c.decode([String: Leaf].self) {
                // Texts and objects of texts (`verifactu`); with numbers or lists (`copias`), mixed.
                let plain = fields.values.allSatisfy { if case .list = $0 { return false }; return true }
                self = plain ? .tree(fields) : .mixed(fields)
            }
            else if let b = try? c.decode(Bool.self) { _ = b; self = .other }
            else if let n = try? c.decode(Int.self) { self = .text(String(n)) }
            else if let d = try? c.decode(Double.self) { self = .text(String(d)) }
            else { self = .other }
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted: return "not valid JSON"
        case DecodingError.typeMismatch: return "not an object"
        default: return "unreadable"
        }
    }

    /// What the restaurant's staff and owner set, said once at start (the
    /// log's first lines): the restaurant, its zone and the time there, the
    /// company, the guests' address, the backups.
    public func startLines(now: Int64) -> [String] {
        let zone = TimeZone(identifier: zonaHoraria) ?? .current
        var lines = ["restaurant \(nombreRestaurante.debugDescription), zone \(zonaHoraria) (it is \(LocalTime.dayAndMinute(now, zone: zone)) there; "
                     + "the log's times are that zone's), business day closing at \(String(format: "%02d:%02d", cierreDia / 60, cierreDia % 60))"]
        lines.append(empresa.map { "company \($0.nif) \($0.razonSocial.debugDescription): invoices \(serieFacturas)… and full invoices \(serieFacturasCompletas)…" }
                     ?? "no company set (empresa.nif): no invoices are issued")
        lines.append(urlPublica.map { "guests' links (tables' QR codes, waitlist links) start with \($0)" }
                     ?? "no public address (urlPublica): guests' links use the address each page was opened at")
        lines.append(copiasCarpetas.isEmpty ? "backups: no folder set (copias.carpetas)"
                     : "backups into \(copiasCarpetas.joined(separator: ", ")) daily at \(copiasHora.texto), \(copiasDiarias) daily and \(copiasMensuales) monthly kept")
        return lines
    }

    /// The names of the environment variables, for `--help` and the docs.
    public static var environmentVariables: [String] { settings.map(\.environmentName) }
}
