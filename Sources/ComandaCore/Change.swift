/// A change the store's writer has committed, as the rooms hear of it
/// (`ComandaApp`'s `Changes`): told after the transaction that made it has
/// committed, in commit order, never for one rolled back. A closed list: a
/// room that writes something new adds its case here, and every subscriber's
/// `switch` says whether it cares.
public enum Change: Sendable, Equatable {
    /// A check changed (its lines, a send, a payment, a void, guests asking
    /// for the bill). `comandas`: the comandas whose state or lines changed
    /// with it, as committed (fired, held, ready, served, a line voided).
    case cuenta(id: Int64, comandas: [Comanda])
    /// The floor's tables changed (created, edited, retired, seated, freed,
    /// cleaned, a check moved or joined).
    case mesas
    /// A table was given a new link: the old one is dead from this commit on.
    case enlace(mesaID: Int64)
    /// The walk-in waitlist changed (a party added, moved, seated, gone).
    case espera
    /// An online order the kitchen sees was placed or moved, as committed.
    case pedido(Pedido)
    /// An invoice was written with its billing record: issued by a payment
    /// or voided (`anulada`); `cuentaID` is its check.
    case factura(id: Int64, cuentaID: Int64?, anulada: Bool)
    /// The printers or stations changed (added, edited, deleted).
    case impresoras
    /// Print jobs were queued for these printers (a reprint, a ticket asked
    /// for; the jobs of sends, fires, voids and accepted orders come with
    /// those changes).
    case trabajos(impresoraIDs: [Int64])
}
