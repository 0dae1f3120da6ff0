import ComandaCore
import ComandaStore
import Foundation

/// The manager's reports: the only caller of `AppDatabase+Reports`.
final class ReportService: Sendable {
    private let database: AppDatabase
    let zone: TimeZone
    private let now: @Sendable () -> Int64
    /// When the business day closes, in minutes after midnight.
    private let cierre: Int

    init(database: AppDatabase, zone: TimeZone, cierre: Int = 0, now: @escaping @Sendable () -> Int64) {
        self.database = database
        self.zone = zone
        self.cierre = cierre
        self.now = now
    }

    /// Today's business day in the restaurant's zone (`YYYY-MM-DD`).
    var today: String { LocalTime.businessDay(now(), zone: zone, cierre: cierre) }

    /// The sales of the business days asked for.
    func ventas(_ range: DayRange) throws -> InformeVentas {
        try database.informeVentas(dias: try range.days(zone: zone, cierre: cierre))
    }
}
