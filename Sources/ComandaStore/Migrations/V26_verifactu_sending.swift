import Foundation
import GRDB

extension Migrations {
    /// `v26-verifactu-sending`, frozen: never edited once shipped (a change is a new migration).
    static func v26VerifactuSending(_ db: Database) throws {
        // The records are never changed: what the AEAT answered about each,
        // and which were made or sent while it could not be reached, are
        // kept beside them. A record with no answer is `sin_enviar`: the
        // queue is the records themselves. One row says how the sender stands.
        try db.execute(sql: """
            CREATE TABLE registro_envio (
                posicion INTEGER PRIMARY KEY REFERENCES registro(posicion),
                estado TEXT NOT NULL CHECK (estado = 'aceptado' OR estado = 'aceptado_con_errores' OR estado = 'rechazado'),
                codigo INTEGER,
                descripcion TEXT,
                csv TEXT,
                fecha INTEGER NOT NULL
            );
            CREATE TABLE registro_incidencia (
                posicion INTEGER PRIMARY KEY REFERENCES registro(posicion)
            );
            CREATE TABLE verifactu_envio (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                ultimo_fecha INTEGER,
                ultimo_estado TEXT,
                ultimo_registros INTEGER,
                ultimo_csv TEXT,
                espera_segundos INTEGER NOT NULL DEFAULT 0,
                error_fecha INTEGER,
                error_mensaje TEXT,
                fallos INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO verifactu_envio (id) VALUES (1);
            """)
    }
}
