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

    /// The sales of the days `desde` through `hasta` (validated: at least one, at most 366).
    func ventas(desde: (year: Int, month: Int, day: Int), hasta: (year: Int, month: Int, day: Int)) throws -> InformeVentas {
        let count = LocalTime.span(desde, hasta)
        guard count >= 1 else { throw APIError.validation("hasta", "must not be before desde") }
        guard count <= 366 else { throw APIError.validation("hasta", "the range may cover at most 366 days") }
        return try database.informeVentas(dias: LocalTime.days(from: desde, through: count, zone: zone))
    }
}
