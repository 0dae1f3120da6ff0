import Foundation
import GRDB

extension Migrations {
    /// `v14-floor-indexes`, frozen: never edited once shipped (a change is a new migration).
    static func v14FloorIndexes(_ db: Database) throws {
        // Seating and freeing touch a table and those joined to it: found
        // by this index, not by reading every table of the floor. A
        // table's last occupation (`limpia` keeps its cleaning time) is
        // found by the other, not among every occupation that ended in
        // the same second.
        try db.execute(sql: """
            CREATE INDEX mesa_unida ON mesa(unida_a) WHERE unida_a IS NOT NULL;
            CREATE INDEX ocupacion_mesa ON ocupacion(mesa_id);
            """)
    }
}
