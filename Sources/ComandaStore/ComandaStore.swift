/// SQLite through GRDB: the database, its migrations and queries.
/// `AppDatabase` arrives with the menu (the first tables).
public enum ComandaStore {}
