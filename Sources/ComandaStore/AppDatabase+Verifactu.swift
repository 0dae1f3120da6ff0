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

    /// How the sending stands now.
    public func estadoEnvioVerifactu() throws(StoreError) -> EstadoEnvioVerifactu {
        try read { db in
            var e = EstadoEnvioVerifactu()
            for row in try Row.fetchAll(db, sql: """
                SELECT coalesce(e.estado, 'sin_enviar') AS estado, count(*) AS n
                FROM registro r LEFT JOIN registro_envio e ON e.posicion = r.posicion GROUP BY 1
                """) {
                let n: Int = row["n"]
                switch row["estado"] as String {
                case "aceptado": e.aceptados = n
                case "aceptado_con_errores": e.aceptadosConErrores = n
                case "rechazado": e.rechazados = n
                default: e.sinEnviar = n
                }
            }
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
            e.esperandoDesde = try String.fetchOne(db, sql: """
                SELECT r.fecha_hora_huso FROM registro r LEFT JOIN registro_envio e ON e.posicion = r.posicion
                WHERE e.posicion IS NULL ORDER BY r.posicion LIMIT 1
                """)
            return e
        }
    }
}
