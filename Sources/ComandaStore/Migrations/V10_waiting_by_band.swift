import Foundation
import GRDB

extension Migrations {
    /// `v10-waiting-by-band`, frozen: never edited once shipped (a change is a new migration).
    static func v10WaitingByBand(_ db: Database) throws {
        // How many parties wait in each size band (SizeBand's raw value),
        // kept by triggers in the transaction of every change: a new
        // party's quote needs the parties ahead of it in its band, which
        // counted row by row grows with the list.
        let band = { (row: String) in
            "CASE WHEN \(row).size <= 2 THEN 0 WHEN \(row).size <= 4 THEN 1 WHEN \(row).size <= 6 THEN 2 ELSE 3 END"
        }
        let waiting = { (row: String) in "\(row).removed_time IS NULL AND \(row).status = 'waiting'" }
        try db.execute(sql: """
            CREATE TABLE waiting_band (band INTEGER PRIMARY KEY, parties INTEGER NOT NULL CHECK (parties >= 0));
            INSERT INTO waiting_band (band, parties) VALUES (0, 0), (1, 0), (2, 0), (3, 0);
            UPDATE waiting_band SET parties = (SELECT count(*) FROM reservation r
                WHERE \(waiting("r")) AND \(band("r")) = waiting_band.band);
            CREATE TRIGGER reservation_waiting_added AFTER INSERT ON reservation WHEN \(waiting("NEW"))
            BEGIN UPDATE waiting_band SET parties = parties + 1 WHERE band = \(band("NEW")); END;
            CREATE TRIGGER reservation_waiting_deleted AFTER DELETE ON reservation WHEN \(waiting("OLD"))
            BEGIN UPDATE waiting_band SET parties = parties - 1 WHERE band = \(band("OLD")); END;
            CREATE TRIGGER reservation_waiting_left AFTER UPDATE OF status, removed_time, size ON reservation WHEN \(waiting("OLD"))
            BEGIN UPDATE waiting_band SET parties = parties - 1 WHERE band = \(band("OLD")); END;
            CREATE TRIGGER reservation_waiting_joined AFTER UPDATE OF status, removed_time, size ON reservation WHEN \(waiting("NEW"))
            BEGIN UPDATE waiting_band SET parties = parties + 1 WHERE band = \(band("NEW")); END;
            """)
    }
}
