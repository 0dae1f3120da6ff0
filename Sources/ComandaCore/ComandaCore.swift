/// The domain of comanda: menu, orders, users, waitlist. No HTTP, no SQL.
/// The menu, orders, users and waitlist types arrive with their issues.
public enum ComandaCore {}
