import ComandaCore
import Foundation
import GRDB

/// What became of a billing record at the AEAT (`GET /verifactu/registros`' `envio`).
public struct EnvioRegistro: Sendable, Equatable {
    /// `sin_enviar`, `aceptado`, `aceptado_con_errores` or `rechazado`.
    public var estado: String
    /// Made, or sent in a request, while the AEAT could not be reached.
    public var incidencia: Bool
    public var codigo: Int?
    public var descripcion: String?
    public var csv: String?
    /// When the AEAT's answer about it arrived (Unix seconds).
    public var fecha: Int64?

    public static let sinEnviar = EnvioRegistro(estado: "sin_enviar", incidencia: false)

    public init(estado: String, incidencia: Bool, codigo: Int? = nil, descripcion: String? = nil, csv: String? = nil, fecha: Int64? = nil) {
        self.estado = estado
        self.incidencia = incidencia
        self.codigo = codigo
        self.descripcion = descripcion
        self.csv = csv
        self.fecha = fecha
    }
}

/// How the sending of billing records stands (`GET /verifactu/estado`).
public struct EstadoEnvioVerifactu: Sendable, Equatable {
    public var sinEnviar = 0, aceptados = 0, aceptadosConErrores = 0, rechazados = 0
    /// The last answer: when, its `EstadoEnvio`, how many records it was about, its `CSV`.
    public var ultimoFecha: Int64?, ultimoEstado: String?, ultimoRegistros: Int?, ultimoCSV: String?
    /// The last answer's `TiempoEsperaEnvio`.
    public var esperaSegundos = 0
    /// The last failure (not delivered, not answered, or not an answer), and how many in a row.
    public var errorFecha: Int64?, errorMensaje: String?, fallos = 0
    /// `FechaHoraHusoGenRegistro` of the oldest record not yet answered.
    public var esperandoDesde: String?

    public init() {}
}

extension AppDatabase {
    /// What became of each record of `posiciones` (`sin_enviar` when the AEAT has not answered about it).
    public func envios(_ posiciones: [Int64]) throws(StoreError) -> [Int64: EnvioRegistro] {
        guard let first = posiciones.min(), let last = posiciones.max() else { return [:] }
        return try read { db in
            var out: [Int64: EnvioRegistro] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT r.posicion, e.estado, e.codigo, e.descripcion, e.csv, e.fecha, i.posicion IS NOT NULL AS incidencia
                FROM registro r LEFT JOIN registro_envio e ON e.posicion = r.posicion
                LEFT JOIN registro_incidencia i ON i.posicion = r.posicion
                WHERE r.posicion BETWEEN ? AND ?
                """), arguments: [first, last]) {
                out[row["posicion"]] = EnvioRegistro(estado: row["estado"] ?? "sin_enviar", incidencia: row["incidencia"], codigo: row["codigo"],
                                                     descripcion: row["descripcion"], csv: row["csv"], fecha: row["fecha"])
            }
            return out
        }
    }

    /// The records by their state at the AEAT: the answered ones counted in
    /// their own table, the waiting ones the rest of the chain (positions run
    /// 1…n without a gap), with no pass over the records themselves.
    public func recuentoVerifactu() throws(StoreError) -> EstadoEnvioVerifactu {
        try read { db in try Self.recuento(db) }
    }

    private static func recuento(_ db: Database) throws -> EstadoEnvioVerifactu {
        var e = EstadoEnvioVerifactu()
        let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(posicion), 0) FROM registro")) ?? 0
        var answered = 0
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT estado, count(*) AS n FROM registro_envio GROUP BY estado")) {
            let n: Int = row["n"]
            answered += n
            switch row["estado"] as String {
            case "aceptado": e.aceptados = n
            case "aceptado_con_errores": e.aceptadosConErrores = n
            default: e.rechazados = n
            }
        }
        e.sinEnviar = max(0, total - answered)
        return e
    }

    /// How the sending stands now.
    public func estadoEnvioVerifactu() throws(StoreError) -> EstadoEnvioVerifactu {
        try read { db in
            var e = try Self.recuento(db)
            if let row = try Row.fetchOne(db, sql: "SELECT * FROM verifactu_envio WHERE id = 1") {
                e.ultimoFecha = row["ultimo_fecha"]
                e.ultimoEstado = row["ultimo_estado"]
                e.ultimoRegistros = row["ultimo_registros"]
                e.ultimoCSV = row["ultimo_csv"]
                e.esperaSegundos = row["espera_segundos"]
                e.errorFecha = row["error_fecha"]
                e.errorMensaje = row["error_mensaje"]
                e.fallos = row["fallos"]
            }
            // The oldest waiting: where the waiting ones usually are (the last of
            // the chain) first, from the first record only when some wait earlier.
            if e.sinEnviar > 0 {
                let total = try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(posicion), 0) FROM registro")) ?? 0
                let tail = total - Int64(e.sinEnviar) + 1
                let answeredInTail = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM registro_envio WHERE posicion >= ?"),
                                                      arguments: [tail]) ?? 0
                e.esperandoDesde = try String.fetchOne(db.cachedStatement(sql: """
                    SELECT r.fecha_hora_huso FROM registro r
                    WHERE r.posicion >= ? AND NOT EXISTS (SELECT 1 FROM registro_envio e WHERE e.posicion = r.posicion)
                    ORDER BY r.posicion LIMIT 1
                    """), arguments: [answeredInTail == 0 ? tail : 1])
            }
            return e
        }
    }
}

/// What the AEAT said about one record of a request.
public struct RespuestaRegistro: Sendable, Equatable {
    public var posicion: Int64
    /// `aceptado`, `aceptado_con_errores` or `rechazado`.
    public var estado: String
    public var codigo: Int?
    public var descripcion: String?
    public var csv: String?

    public init(posicion: Int64, estado: String, codigo: Int?, descripcion: String?, csv: String?) {
        self.posicion = posicion
        self.estado = estado
        self.codigo = codigo
        self.descripcion = descripcion
        self.csv = csv
    }
}

/// The next request's records: the oldest waiting, in chain order, all with or all without the incident.
/// A record as a request to the AEAT carries it: for an `alta`, its
/// invoice's VAT parts and, for a full invoice, the customer
/// (`Destinatarios`) and, for an F3, the simplified invoice it replaces
/// (`FacturasSustituidas`: its issuer's NIF, number and date).
public struct RegistroAEAT: Sendable {
    public var registro: RegistroFacturacion
    public var desglose: [ParteIVA]
    public var destinatario: Cliente?
    public var sustituida: (idEmisor: String, numSerie: String, fecha: String)?

    public init(registro: RegistroFacturacion, desglose: [ParteIVA], destinatario: Cliente? = nil,
                sustituida: (idEmisor: String, numSerie: String, fecha: String)? = nil) {
        self.registro = registro
        self.desglose = desglose
        self.destinatario = destinatario
        self.sustituida = sustituida
    }
}

public struct LoteVerifactu: Sendable {
    public var incidencia: Bool
    public var registros: [RegistroAEAT]
}

extension AppDatabase {
    /// How many records wait for the AEAT's answer, and the oldest of them:
    /// read from `desde` on (every record before it has an answer), so that
    /// what was answered long ago is not read again at each look.
    public func verifactuEsperando(desde: Int64 = 1) throws(StoreError) -> (count: Int, oldest: Int64?) {
        try read { db in
            let oldest = try Int64.fetchOne(db.cachedStatement(sql: """
                SELECT r.posicion FROM registro r
                WHERE r.posicion >= ? AND NOT EXISTS (SELECT 1 FROM registro_envio e WHERE e.posicion = r.posicion)
                ORDER BY r.posicion LIMIT 1
                """), arguments: [desde])
            guard let oldest else { return (0, nil) }
            let count = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM registro r
                WHERE r.posicion >= ? AND NOT EXISTS (SELECT 1 FROM registro_envio e WHERE e.posicion = r.posicion)
                """), arguments: [oldest]) ?? 0
            return (count, oldest)
        }
    }

    /// The next request's records: the oldest waiting first, at most `limite`,
    /// ending where the incident changes (nil when none waits).
    public func loteVerifactu(limite: Int, desde: Int64 = 1) throws(StoreError) -> LoteVerifactu? {
        let waiting: [(Int64, Bool)] = try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT r.posicion, i.posicion IS NOT NULL FROM registro r
                LEFT JOIN registro_incidencia i ON i.posicion = r.posicion
                WHERE r.posicion >= ? AND NOT EXISTS (SELECT 1 FROM registro_envio e WHERE e.posicion = r.posicion)
                ORDER BY r.posicion LIMIT ?
                """), arguments: [desde, limite]).map { ($0[0], $0[1]) }
        }
        guard let first = waiting.first else { return nil }
        let incidencia = first.1
        let wanted = Set(waiting.prefix { $0.1 == incidencia }.map(\.0))
        guard let last = wanted.max() else { return nil }
        let span = Int(last - first.0) + 1
        let records = try registrosConDesglose(despues: first.0 - 1, limite: span).filter { wanted.contains($0.registro.posicion) }
        return LoteVerifactu(incidencia: incidencia, registros: records)
    }

    /// Before a request goes: its last record is kept as in flight, so that a
    /// crash before its answer sends them again with the incident.
    public func verifactuEnVuelo(hasta posicion: Int64) throws(StoreError) {
        try write { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO ajuste (clave, valor) VALUES ('verifactu_en_vuelo', ?)")
                .execute(arguments: [String(posicion)])
        }
    }

    /// At start-up: the records of a request cut off by a crash (still
    /// waiting) get the incident. True when there was one.
    @discardableResult
    public func verifactuTrasCaida() throws(StoreError) -> Bool {
        try write { db in
            guard let value = try String.fetchOne(db.cachedStatement(sql: "SELECT valor FROM ajuste WHERE clave = 'verifactu_en_vuelo'")),
                  let hasta = Int64(value) else { return false }
            try Self.marcarIncidencia(db, desde: 1, hasta: hasta)
            try db.execute(sql: "DELETE FROM ajuste WHERE clave = 'verifactu_en_vuelo'")
            return true
        }
    }

    /// A request that failed (`mensaje` says how): its records, and every
    /// other waiting one, go with the incident; the failures in a row count one more.
    public func verifactuFallo(mensaje: String, fecha: Int64, desde: Int64 = 1) throws(StoreError) {
        try write { db in
            try Self.marcarIncidencia(db, desde: desde, hasta: nil)
            try db.cachedStatement(sql: """
                UPDATE verifactu_envio SET error_fecha = ?, error_mensaje = ?, fallos = fallos + 1 WHERE id = 1
                """).execute(arguments: [fecha, mensaje])
            try db.execute(sql: "DELETE FROM ajuste WHERE clave = 'verifactu_en_vuelo'")
        }
    }

    /// A valid answer: what it said of each record, its state, `CSV` and
    /// `TiempoEsperaEnvio`, all in one transaction. After failures, the
    /// records made meanwhile and still waiting keep the incident.
    public func verifactuRespuesta(_ lineas: [RespuestaRegistro], estado: String, csv: String?, espera: Int, registros: Int,
                                   fecha: Int64, desde: Int64 = 1) throws(StoreError) {
        try write { db in
            let fallos = try Int.fetchOne(db.cachedStatement(sql: "SELECT fallos FROM verifactu_envio WHERE id = 1")) ?? 0
            let insert = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO registro_envio (posicion, estado, codigo, descripcion, csv, fecha) VALUES (?, ?, ?, ?, ?, ?)
                """)
            for l in lineas {
                try insert.execute(arguments: [l.posicion, l.estado, l.codigo, l.descripcion, l.csv, fecha])
            }
            if fallos > 0 { try Self.marcarIncidencia(db, desde: desde, hasta: nil) }
            try db.cachedStatement(sql: """
                UPDATE verifactu_envio SET ultimo_fecha = ?, ultimo_estado = ?, ultimo_registros = ?, ultimo_csv = ?,
                espera_segundos = ?, fallos = 0 WHERE id = 1
                """).execute(arguments: [fecha, estado, registros, csv, espera])
            try db.execute(sql: "DELETE FROM ajuste WHERE clave = 'verifactu_en_vuelo'")
        }
    }

    /// After a failed try, before the next: the records made since wait with the incident too.
    public func verifactuIncidenciaEsperando(desde: Int64 = 1) throws(StoreError) {
        try write { db in try Self.marcarIncidencia(db, desde: desde, hasta: nil) }
    }

    /// Every waiting record from `desde` (every one before has an answer) up to `hasta` gets the incident.
    private static func marcarIncidencia(_ db: Database, desde: Int64, hasta: Int64?) throws {
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO registro_incidencia (posicion)
            SELECT r.posicion FROM registro r
            WHERE r.posicion >= ? AND r.posicion <= ? AND NOT EXISTS (SELECT 1 FROM registro_envio e WHERE e.posicion = r.posicion)
            """).execute(arguments: [desde, hasta ?? Int64.max])
    }
}
