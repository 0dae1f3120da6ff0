import ComandaCore
import ComandaStore
import Foundation

/// The manager's reports: the only caller of `AppDatabase+Reports`.
final class ReportService: Sendable {
    private let database: AppDatabase
    let zone: TimeZone
    private let now: @Sendable () -> Int64

    init(database: AppDatabase, zone: TimeZone, now: @escaping @Sendable () -> Int64) {
        self.database = database
        self.zone = zone
        self.now = now
    }

    /// Today in the restaurant's zone (`YYYY-MM-DD`).
    var today: String { LocalTime.day(now(), zone: zone) }

    /// The sales of the days asked for.
    func ventas(_ range: DayRange) throws -> InformeVentas {
        try database.informeVentas(dias: try range.days(zone: zone))
    }
}
