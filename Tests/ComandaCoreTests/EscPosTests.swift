import ComandaCore
import ComandaQR
import ComandaTestSupport
import Foundation
import Testing

/// The ESC/POS writer byte for byte: every special character of a Spanish
/// ticket in both code pages, text wrapped at the printer's columns (double
/// size taking two), a wide name no page holds, the QR code by `GS ( k`, and
/// the raster image of the same code read back by zbar.
@Suite struct EscPosTests {
    private func body(_ lineas: [TicketImpreso.Linea], _ formato: EscPos.Formato = .init(columnas: 32)) -> [UInt8] {
        let all = EscPos.bytes(TicketImpreso(lineas), formato: formato)
        let head = EscPos.inicio + [0x1B, 0x74, formato.numeroPagina ?? formato.codigoPagina.numero]
        #expect(Array(all.prefix(head.count)) == head, "ESC @ and ESC t first")
        #expect(Array(all.suffix(EscPos.corte.count)) == EscPos.corte, "a full cut last")
        return Array(all.dropFirst(head.count).dropLast(EscPos.corte.count))
    }

    @Test func everySpanishCharacterInBothCodePages() {
        let text = "€ñÑáéíóúüÜ¿¡çº"
        #expect(body([.texto(text)], .init(columnas: 32, codigoPagina: .cp858))
                == [0xD5, 0xA4, 0xA5, 0xA0, 0x82, 0xA1, 0xA2, 0xA3, 0x81, 0x9A, 0xA8, 0xAD, 0x87, 0xA7, 0x0A])
        #expect(body([.texto(text)], .init(columnas: 32, codigoPagina: .wpc1252))
                == [0x80, 0xF1, 0xD1, 0xE1, 0xE9, 0xED, 0xF3, 0xFA, 0xFC, 0xDC, 0xBF, 0xA1, 0xE7, 0xBA, 0x0A])
        // ESC t: 19 for CP858, 16 for WPC1252, or the model's own number.
        #expect(EscPos.bytes(TicketImpreso(), formato: .init(codigoPagina: .cp858)).prefix(5).elementsEqual([0x1B, 0x40, 0x1B, 0x74, 19]))
        #expect(EscPos.bytes(TicketImpreso(), formato: .init(codigoPagina: .wpc1252)).prefix(5).elementsEqual([0x1B, 0x40, 0x1B, 0x74, 16]))
        #expect(EscPos.bytes(TicketImpreso(), formato: .init(codigoPagina: .wpc1252, numeroPagina: 45)).prefix(5).elementsEqual([0x1B, 0x40, 0x1B, 0x74, 45]))
    }

    @Test func anAccentTypedAsAMarkAndControlCharactersAndWideNames() {
        // "e" + U+0301 prints as é; a tab or a newline as a space; each character no page holds as "?".
        #expect(body([.texto("Cafe\u{301}\tcon\nleche")]) == Array("Caf".utf8) + [0x82] + Array(" con leche".utf8) + [0x0A])
        #expect(body([.texto("北京烤鸭 🍜")]) == Array("???? ?".utf8) + [0x0A])
    }

    @Test func linesWrapAtThePrintersColumnsIndentedAfterTheFirst() {
        let name = "2 x Croquetas de jamón ibérico con alioli de la casa"
        let rows = body([.texto(name, sangria: 4)])
            .split(separator: 0x0A).map { String(decoding: $0.map { $0 == 0xA2 ? 0x6F : $0 == 0x82 ? 0x65 : $0 }, as: UTF8.self) }
        #expect(rows == ["2 x Croquetas de jamon iberico", "    con alioli de la casa"])
        #expect(rows.allSatisfy { $0.count <= 32 })
        // A word longer than a row is cut where the row is full.
        #expect(body([.texto(String(repeating: "x", count: 40))]) == Array(String(repeating: "x", count: 32).utf8) + [0x0A] + Array(String(repeating: "x", count: 8).utf8) + [0x0A])
        // Double size: GS ! 0x11 around it, half the columns.
        #expect(body([.texto("MESA TERRAZA 12", grande: true, negrita: true)])
                == [0x1D, 0x21, 0x11, 0x1B, 0x45, 0x01] + Array("MESA TERRAZA 12".utf8) + [0x0A, 0x1B, 0x45, 0x00, 0x1D, 0x21, 0x00])
        #expect(body([.texto("MESA TERRAZA NUMERO 12", grande: true)])
                == [0x1D, 0x21, 0x11] + Array("MESA TERRAZA".utf8) + [0x0A] + Array("NUMERO 12".utf8) + [0x0A, 0x1D, 0x21, 0x00])
        // Two columns, flush right; a rule across.
        #expect(body([.columnas("TOTAL", "41,00 €"), .regla])
                == Array("TOTAL".utf8) + [UInt8](repeating: 0x20, count: 32 - 5 - 7) + Array("41,00 ".utf8) + [0xD5, 0x0A]
                    + [UInt8](repeating: 0x2D, count: 32) + [0x0A])
    }

    @Test func aHeaderForReprintsAndBackups() {
        let all = EscPos.bytes(TicketImpreso([.texto("x")]), formato: .init(columnas: 32), cabecera: ["REIMPRESIÓN"])
        #expect(Array(all[5...]) == [0x1D, 0x21, 0x11, 0x1B, 0x45, 0x01] + Array("REIMPRESI".utf8) + [0xE0, 0x4E, 0x0A, 0x1B, 0x45, 0x00, 0x1D, 0x21, 0x00]
                + [UInt8](repeating: 0x2D, count: 32) + [0x0A] + [0x78, 0x0A] + EscPos.corte)
    }

    @Test func theQRCodeByGSParenK() {
        let text = "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=T2026-000001&fecha=26-11-2026&importe=41.00"
        let n = text.utf8.count + 3
        #expect(EscPos.qrNativo(text) == [0x1D, 0x28, 0x6B, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00,
                                          0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43, 0x06,
                                          0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x45, 0x31,
                                          0x1D, 0x28, 0x6B, UInt8(n & 0xFF), UInt8(n >> 8), 0x31, 0x50, 0x30] + Array(text.utf8)
                                          + [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x51, 0x30])
        #expect(body([.qr(text)]) == [0x1B, 0x61, 0x01] + EscPos.qrNativo(text) + [0x0A, 0x1B, 0x61, 0x00])
    }

    /// The raster image (`GS v 0`) of an invoice's code, drawn as a PBM and read back by `zbarimg`.
    @Test func theRasterQRCodeReadsBack() throws {
        let text = "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=T2026-000042&fecha=27-11-2026&importe=123.45"
        let rows = try #require(QRCode.modules(text))
        let bytes = EscPos.raster(rows, columnas: 48)
        #expect(Array(bytes.prefix(4)) == [0x1D, 0x76, 0x30, 0x00])
        let widthBytes = Int(bytes[4]) | Int(bytes[5]) << 8, height = Int(bytes[6]) | Int(bytes[7]) << 8
        #expect(bytes.count == 8 + widthBytes * height && widthBytes * 8 >= height && widthBytes * 8 < height + 8)
        #expect(widthBytes * 8 <= 48 * 12, "it fits the paper")
        let printed = EscPos.bytes(TicketImpreso([.qr(text)]), formato: .init(columnas: 48, qr: .imagen), modulos: QRCode.modules)
        #expect(printed.count > bytes.count && (0...(printed.count - bytes.count)).contains { Array(printed[$0..<($0 + bytes.count)]) == bytes })
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "zbarimg (zbar-tools) is missing")
            return
        }
        // PBM (P4): 1 is black, rows padded to bytes, exactly GS v 0's layout.
        let folder = try makeTemporaryFolder("comanda-raster")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/qr.pbm"
        try Data(Array("P4\n\(widthBytes * 8) \(height)\n".utf8) + bytes[8...]).write(to: URL(fileURLWithPath: path))
        let zbar = Process()
        zbar.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        zbar.arguments = ["--quiet", "--raw", path]
        let out = Pipe()
        zbar.standardOutput = out
        try zbar.run()
        zbar.waitUntilExit()
        let read = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .newlines)
        #expect(zbar.terminationStatus == 0 && read == text, "zbar read \(read)")
    }

    @Test func paperAndOfflineStatus() {
        #expect(EscPos.sinPapel(0x72) && EscPos.sinPapel(0x60) && !EscPos.sinPapel(0x12) && !EscPos.sinPapel(0x1E))
        #expect(EscPos.fueraDeLinea(0x1E) && !EscPos.fueraDeLinea(0x16))
        #expect(EscPos.estadoPapel == [0x10, 0x04, 0x04] && EscPos.cajon == [0x1B, 0x70, 0x00, 0x19, 0xFA])
    }
}

/// The tickets as printed, byte for byte at 32 columns: a send's comanda at
/// a station (a held course, options and notes indented, a wide name), the
/// routing of dishes to stations as a table, and an invoice whose QR text
/// becomes the code.
@Suite struct ImpresionTests {
    private let madrid = TimeZone(identifier: "Europe/Madrid") ?? .current

    private func linea(_ id: Int64, _ nombre: String, _ cantidad: Int, curso: Int, opciones: [String] = [], notas: String = "") -> LineaCuenta {
        LineaCuenta(id: id, cuentaID: 1, platoID: id, nombre: nombre, precioUnitarioCentimos: 100, cantidad: cantidad,
                    opciones: opciones.map { OpcionElegida(grupo: "Punto", valor: $0, precioCentimos: 0) }, notas: notas, curso: curso,
                    estado: .marchada)
    }

    @Test func theComandaOfASendAtAStation() {
        let ticket = Impresion.comanda(estacion: "Cocina", mesa: "Terraza 2", camarero: "Luis", hora: 1_795_694_400, zone: madrid,
                                       lineas: [linea(1, "Chuletón de ternera", 2, curso: 2, opciones: ["Al punto"], notas: "sin sal"),
                                                linea(2, "Croquetas", 6, curso: 1), linea(3, "北京烤鸭", 1, curso: 2)],
                                       enEspera: [2])
        let bytes = EscPos.bytes(ticket, formato: .init(columnas: 32))
        func t(_ s: String) -> [UInt8] { Array(s.utf8) }
        let big: [UInt8] = [0x1D, 0x21, 0x11, 0x1B, 0x45, 0x01], endBig: [UInt8] = [0x0A, 0x1B, 0x45, 0x00, 0x1D, 0x21, 0x00]
        let bold: [UInt8] = [0x1B, 0x45, 0x01], endBold: [UInt8] = [0x0A, 0x1B, 0x45, 0x00]
        let rule = [UInt8](repeating: 0x2D, count: 32) + [0x0A]
        let expected: [UInt8] = [0x1B, 0x40, 0x1B, 0x74, 19]
            + big + t("Cocina") + endBig
            + big + t("Mesa Terraza 2") + endBig
            + t("13:00") + [UInt8](repeating: 0x20, count: 32 - 5 - 4) + t("Luis") + [0x0A]
            + rule
            + bold + t("-- PRIMEROS --") + endBold
            + bold + t("6 x Croquetas") + endBold
            + bold + t("-- SEGUNDOS · EN ESPERA --").map { $0 } .replacing([0xC2, 0xB7], with: [0xFA]) + endBold
            + bold + t("2 x Chulet") + [0xA2] + t("n de ternera") + endBold
            + t("    ") + [0xFA] + t(" Al punto") + [0x0A]
            + t("    Nota: sin sal") + [0x0A]
            + bold + t("1 x ????") + endBold
            + rule + EscPos.corte
        #expect(bytes == expected)
    }

    /// A send's comanda is written straight as the job keeps it: byte for
    /// byte what the ticket's own `guardado` is, and read back the same
    /// ticket (held courses, options, notes with a line break, a wide name,
    /// no waiter, a course past the named ones).
    @Test func aSendsComandaWrittenStraightIsItsKeptTicket() {
        let cases: [(String?, [LineaCuenta], Set<Int>)] = [
            ("Luis", [linea(1, "Chuletón de ternera", 2, curso: 2, opciones: ["Al punto", "Sin sal"], notas: "sin sal\r\ny poco hecho"),
                      linea(2, "Croquetas", 6, curso: 1), linea(3, "北京烤鸭", 12, curso: 2)], [2]),
            (nil, [linea(4, "Flan", 1, curso: 7, notas: "velas\u{1F}2"), linea(5, "Café", 3, curso: 1)], [7]),
            ("Ana", [], []),
        ]
        for (camarero, lineas, held) in cases {
            let ticket = Impresion.comanda(estacion: "Cocina", mesa: "Terraza 2", camarero: camarero, hora: 1_795_694_400, zone: madrid,
                                           lineas: lineas, enEspera: held)
            let straight = Impresion.comandaGuardada(estacion: "Cocina", mesa: "Terraza 2", camarero: camarero, hora: 1_795_694_400, zone: madrid,
                                                     lineas: lineas, enEspera: held)
            #expect(straight == ticket.guardadoUTF8)
            #expect(TicketImpreso(guardado: String(decoding: straight, as: UTF8.self)).lineas.count == ticket.lineas.count)
        }
    }

    @Test func dishesGoToTheirStationElseTheDefaultElseNowhere() {
        let cocina = Impresion.Estacion(id: 1, nombre: "Cocina", impresoraID: 1, categorias: ["Entrantes", "Principales"], porDefecto: true)
        let barra = Impresion.Estacion(id: 2, nombre: "Barra", impresoraID: 2, categorias: ["Bebidas", "Cafés"], porDefecto: false)
        let postres = Impresion.Estacion(id: 3, nombre: "Postres", impresoraID: 1, categorias: ["Postres"], porDefecto: false)
        for (tipo, estaciones, expected) in [("Bebidas", [cocina, barra, postres], "Barra"), ("Principales", [cocina, barra], "Cocina"),
                                             ("Vinos", [cocina, barra], "Cocina"), ("Vinos", [barra, postres], nil),
                                             ("Postres", [cocina, barra, postres], "Postres"), ("Cafés", [], nil)] as [(String, [Impresion.Estacion], String?)] {
            #expect(Impresion.estacion(tipo: tipo, en: estaciones)?.nombre == expected, "\(tipo)")
        }
        let grouped = Impresion.porEstacion(["Bebidas", "Entrantes", "Vinos", "Bebidas", "Postres"], tipo: { $0 }, en: [cocina, barra])
        #expect(grouped.map { $0.0.nombre } == ["Cocina", "Barra"] && grouped.map(\.1) == [["Entrantes", "Vinos", "Postres"], ["Bebidas", "Bebidas"]])
    }

    @Test func anInvoicesQRTextBecomesTheCode() {
        let qr = "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=T2026-000001&fecha=26-11-2026&importe=41.00"
        var f = Factura(id: 1, numero: "T2026-000001", fecha: 1_795_694_400, cuentaID: 1, mesa: "T1", importeCentimos: 4100,
                        desglose: [ParteIVA(iva: 10, base: 3727, cuota: 373)], lineas: [LineaFactura(nombre: "Tortilla", cantidad: 1, importeCentimos: 4100)],
                        metodo: .tarjeta, estado: .emitida, huella: String(repeating: "A", count: 64), qr: qr)
        f.nif = "B12345674"
        let ticket = Impresion.factura(f, empresa: Empresa(nif: "B12345674", razonSocial: "Casa Pepe S.L.", direccion: "Calle Mayor 1"),
                                       zone: madrid, verifactu: true, columnas: 32)
        #expect(ticket.lineas.last == .qr(qr))
        #expect(ticket.lineas.contains(.texto("FACTURA SIMPLIFICADA", grande: true, negrita: true)))
        #expect(!ticket.lineas.contains { if case .fila(let row) = $0 { row.contains("ValidarQR") } else { false } })
        #expect(ticket.lineas.allSatisfy { if case .fila(let row) = $0 { KitchenTicket.columns(of: row) <= 32 } else { true } })
    }
}

@Suite struct TicketGuardadoTests {
    /// A job keeps its ticket as text and reads it back the same, whatever its names hold.
    @Test func aTicketReadsBackAsItWasKept() {
        let ticket = TicketImpreso([.texto("Cocina", grande: true, negrita: true), .texto("2 x Croquetas | de «jamón»", negrita: true, sangria: 4),
                                    .texto("· Al punto", margen: 4, sangria: 2), .fila("  N.º T2026-000001     27/11/2026"),
                                    .columnas("TOTAL", "41,00 €"), .regla, .qr("https://x/y?a=1|b"), .texto("北京 🍜", margen: 1)])
        #expect(TicketImpreso(guardado: ticket.guardado) == ticket)
        // A line break or U+001F in a text is a space (as it prints).
        let odd = TicketImpreso([.texto("Nota:\nsin sal"), .columnas("a\u{1F}b", "c")])
        #expect(TicketImpreso(guardado: odd.guardado) == TicketImpreso([.texto("Nota: sin sal"), .columnas("a b", "c")]))
    }
}
