import GRDB

/// The store's migrations, one per file under `Migrations/`, each frozen once
/// shipped: it uses plain SQL and, where it needs more, private copies of
/// what it used then (never the application's code of today, which moves on).
/// The schema they make is `Tests/ComandaStoreTests/schema.sql`.
enum Migrations {
    /// Every migration, by name, in the order they run. Never edit or reorder
    /// a shipped one: add another at the end.
    static let all: [(name: String, migrate: @Sendable (Database) throws -> Void)] = [
        ("v1-menu", Migrations.v1Menu),
        ("v2-users", Migrations.v2Users),
        ("v3-waitlist", Migrations.v3Waitlist),
        ("v4-orders", Migrations.v4Orders),
        ("v5-waitlist-rowid", Migrations.v5WaitlistRowid),
        ("v6-staff-roles", Migrations.v6StaffRoles),
        ("v7-kitchen", Migrations.v7Kitchen),
        ("v8-menu-detail", Migrations.v8MenuDetail),
        ("v9-waitlist-guests", Migrations.v9WaitlistGuests),
        ("v10-waiting-by-band", Migrations.v10WaitingByBand),
        ("v11-guest-links-by-id", Migrations.v11GuestLinksById),
        ("v12-dining-room", Migrations.v12DiningRoom),
        ("v13-cleaning-times", Migrations.v13CleaningTimes),
        ("v14-floor-indexes", Migrations.v14FloorIndexes),
        ("v15-table-service", Migrations.v15TableService),
        ("v16-dish-options", Migrations.v16DishOptions),
        ("v17-pending-lines-index", Migrations.v17PendingLinesIndex),
        ("v18-order-line-options", Migrations.v18OrderLineOptions),
        ("v19-bill", Migrations.v19Bill),
        ("v20-void-by", Migrations.v20VoidBy),
        ("v21-table-links", Migrations.v21TableLinks),
        ("v22-lines-by-pending-and-comanda", Migrations.v22LinesByPendingAndComanda),
        ("v23-checks-without-temporary-tables", Migrations.v23ChecksWithoutTemporaryTables),
        ("v24-voided-comandas", Migrations.v24VoidedComandas),
        ("v25-check-totals", Migrations.v25CheckTotals),
        ("v26-verifactu-sending", Migrations.v26VerifactuSending),
        ("v27-line-discounts", Migrations.v27LineDiscounts),
        ("v28-full-invoices", Migrations.v28FullInvoices),
        ("v29-printers", Migrations.v29Printers),
        ("v30-staff-accounts", Migrations.v30StaffAccounts),
        ("v31-one-time-codes-expire", Migrations.v31OneTimeCodesExpire),
        ("v32-print-queue-on-the-send", Migrations.v32PrintQueueOnTheSend),
    ]
}

extension AppDatabase {
    /// The migrations, by name, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in Migrations.all {
            migrator.registerMigration(migration.name, migrate: migration.migrate)
        }
        return migrator
    }
}
