@testable import ComandaApp
import Testing

/// What `/gestion` tells the owner about the backups, most pressing first.
@Suite struct CopiasAvisoTests {
    typealias Carpeta = Copiador.Carpeta
    static let now: Int64 = 1_795_780_800

    private func aviso(_ carpetas: [Carpeta], copiando: Bool = false) -> String? {
        CopiasRoutes.aviso(Copiador.Estado(carpetas: carpetas, siguiente: Self.now + 3600, copiando: copiando), now: Self.now)
    }

    private func carpeta(_ ruta: String, hace horas: Int64?, error: String? = nil, mismoDisco: Bool = false) -> Carpeta {
        Carpeta(ruta: ruta, ultima: horas.map { ("comanda-x.sqlite", Self.now - $0 * 3600, 1000, nil) },
                error: error.map { ($0, Self.now) }, mismoDisco: mismoDisco)
    }

    @Test func fromNoFolderToAllWell() {
        #expect(aviso([])?.hasPrefix("No hay copias de seguridad fuera de este disco") == true)
        #expect(aviso([carpeta("/media/usb", hace: 1), carpeta("/mnt/nas", hace: nil, error: "El disco de la carpeta está lleno")])
            == "La copia en /mnt/nas falló: El disco de la carpeta está lleno.")
        #expect(aviso([carpeta("/media/usb", hace: nil)])?.hasPrefix("Todavía no hay ninguna copia") == true)
        #expect(aviso([carpeta("/media/usb", hace: nil)], copiando: true) == nil)
        // Older than 26 hours (the box off for a day and more, or the copies stopped): said; 25 hours is a normal day's.
        #expect(aviso([carpeta("/media/usb", hace: 27)])?.contains("más de 26 horas") == true)
        #expect(aviso([carpeta("/media/usb", hace: 25)]) == nil)
        // The newest of any folder counts.
        #expect(aviso([carpeta("/media/usb", hace: 40), carpeta("/mnt/nas", hace: 2)]) == nil)
        // Every folder on the database's own disk (a USB mount point with no disk in it, say).
        #expect(aviso([carpeta("/media/usb", hace: 2, mismoDisco: true)])?.contains("mismo disco") == true)
        #expect(aviso([carpeta("/media/usb", hace: 2, mismoDisco: true), carpeta("/mnt/nas", hace: 2)]) == nil)
    }
}
