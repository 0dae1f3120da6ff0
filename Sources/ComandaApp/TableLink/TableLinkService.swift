import ComandaCore
import ComandaQR
import ComandaRuntime
import ComandaStore

/// Each table's own link (`/m/{token}`): what the guests at the table may
/// see and do (the check as they may see it, adding lines for the waiter
/// to send, asking for the bill), and the manager's side (the links, a new
/// one, the QR code to print). The only caller of `AppDatabase+TableLinks`.
final class TableLinkService: Sendable {
    private let database: AppDatabase

    init(database: AppDatabase) {
        self.database = database
    }

    // MARK: - The guests'

    /// The table whose link is `token`: else 404.
    func mesa(token: String) throws -> Mesa {
        guard let mesa = try find(token: token) else { throw CuentaError.enlaceNotFound }
        return mesa
    }

    /// The table whose link is `token`, or nil.
    func find(token: String) throws -> Mesa? { try database.mesa(enlace: token) }

    /// Whether `token` is a table's link now (a stream ends when it no longer is).
    func isLink(_ token: String) -> Bool { (try? database.mesa(enlace: token)) != nil }

    /// The body of `GET /m/{token}/cuenta` (and of its stream's events) and its weak tag.
    func vista(_ mesa: Mesa) throws -> (body: String, tag: String) {
        var cuenta: Cuenta?
        // Only an open check: once paid the page shows the menu, so a party's saved link never shows
        // a check after theirs was paid, until the next party is seated there (docs/OPERATIONS.md).
        if mesa.estado == .ocupada, let id = mesa.cuentaID {
            let check = try database.cuentaConLineas(id: id)
            cuenta = check?.estado == .abierta ? check : nil
        }
        return TableLinkJSON.vista(mesa: mesa.nombre, cuenta: cuenta)
    }

    /// The view of the table `mesaID` as it is now (nil if it is gone).
    func vista(mesaID: Int64) throws -> (body: String, tag: String)? {
        guard let mesa = try database.mesa(id: mesaID) else { return nil }
        return try vista(mesa)
    }

    func addLinea(token: String, platoID: Int64, cantidad: Int, notas: String, opciones: [Int64]) -> PendingWrite<LineaCuenta> {
        database.addLineaCliente(enlace: token, platoID: platoID, cantidad: cantidad, notas: notas, opciones: opciones)
    }

    /// The bill asked for (the check's id; whether it was not asked for already).
    func pideCuenta(token: String) -> PendingWrite<(cuentaID: Int64, cambiada: Bool)> {
        database.pideCuenta(enlace: token)
    }

    // MARK: - The manager's

    func enlaces() throws -> [Int64: String] { try database.enlaces() }

    func enlace(mesaID: Int64) throws -> String {
        guard let token = try database.enlace(mesaID: mesaID) else { throw MesaError.notFound }
        return token
    }

    func regenerate(mesaID: Int64) -> PendingWrite<(Mesa, String)> {
        database.regenerateEnlace(mesaID: mesaID)
    }

    /// The QR code (PNG) of the table's absolute link under `base` (`https://casa-pepe.es`), and that link.
    func qr(mesaID: Int64, base: String) throws -> (png: [UInt8], link: String) {
        let link = base + TableLinkJSON.path(try enlace(mesaID: mesaID))
        guard let png = QRCode.png(link, scale: 8) else { throw APIError(.internalServerError, "qr", "The QR code could not be made.") }
        return (png, link)
    }
}

extension TableLinkService {
    /// The tables showing the check `cuentaID` (the seated one and those joined to it).
    func mesasDeCuenta(_ cuentaID: Int64) throws -> [Int64] { try database.mesasDeCuenta(cuentaID) }
}
