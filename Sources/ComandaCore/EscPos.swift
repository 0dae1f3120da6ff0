import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A ticket for a thermal printer as what it says, not yet as bytes: the
/// same ticket prints on a 48-column kitchen printer or, handed to its
/// backup, on a 32-column one. A print job keeps it frozen as it was made
/// (what was sent is what prints, whatever the menu says later).
public struct TicketImpreso: Sendable, Equatable {
    public enum Linea: Sendable, Equatable {
        /// Text wrapped at the printer's width, every row after `margen`
        /// spaces and its continuation rows after `sangria` more; `grande`:
        /// double width and height (a character takes two columns);
        /// `negrita`: emphasised.
        case texto(String, grande: Bool = false, negrita: Bool = false, margen: Int = 0, sangria: Int = 0)
        /// A row already laid out (a text ticket's line), printed as it is, cut at the printer's width.
        case fila(String)
        /// `izquierda` and `derecha` on one line, the right one flush right
        /// (on a line of its own when both do not fit).
        case columnas(String, String)
        /// A rule of dashes across the paper.
        case regla
        /// A QR code of the text, centred.
        case qr(String)
    }

    public var lineas: [Linea]

    public init(_ lineas: [Linea] = []) { self.lineas = lineas }

    /// The ticket as one text, as a print job keeps it (written on every
    /// send, so by hand: Codable's JSON was most of a send's time): a line
    /// per `Linea`, its kind first — `T` text (`G` large, `N` bold, margin
    /// and indent), `F` a row, `C` two columns (separated by U+001F), `R` a
    /// rule, `Q` a QR code. A text never holds a line break (it prints as a
    /// space), nor U+001F (no name may hold a control character).
    public var guardado: String { String(decoding: guardadoUTF8, as: UTF8.self) }

    /// `guardado`'s UTF-8, as a job's row takes it.
    public var guardadoUTF8: [UInt8] {
        var out = TicketGuardado(capacidad: lineas.count * 40)
        for line in lineas {
            switch line {
            case let .texto(text, grande, negrita, margen, sangria): out.texto(text, grande: grande, negrita: negrita, margen: margen, sangria: sangria)
            case .fila(let text): out.linea("F", text)
            case let .columnas(left, right): out.columnas(left, right)
            case .regla: out.regla()
            case .qr(let text): out.linea("Q", text)
            }
        }
        return out.bytes
    }

    /// A ticket read back from `guardado`.
    public init(guardado text: String) {
        var lineas: [Linea] = []
        for row in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let bar = row.firstIndex(of: "|") else { continue }
            let head = row[..<bar], body = String(row[row.index(after: bar)...])
            switch head.first {
            case "T":
                let numbers = head.drop { $0 == "T" || $0 == "G" || $0 == "N" }.split(separator: ",").compactMap { Int($0) }
                lineas.append(.texto(body, grande: head.contains("G"), negrita: head.contains("N"),
                                     margen: numbers.first ?? 0, sangria: numbers.count > 1 ? numbers[1] : 0))
            case "F": lineas.append(.fila(body))
            case "C":
                let parts = body.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                lineas.append(.columnas(parts.first ?? "", parts.count > 1 ? parts[1] : ""))
            case "R": lineas.append(.regla)
            case "Q": lineas.append(.qr(body))
            default: continue
            }
        }
        self.lineas = lineas
    }
}

/// Where a ticket's lines go as they are made: kept as a `TicketImpreso`,
/// or written straight as `guardado`'s bytes (a send's comanda, made in
/// the writer's transaction: no lines kept on the way). A text is `text`
/// followed by `mas` (a line's `2 x ` and its name, not joined first).
public protocol DestinoTicket {
    mutating func texto(_ text: String, _ mas: String, grande: Bool, negrita: Bool, margen: Int, sangria: Int)
    mutating func columnas(_ izquierda: String, _ derecha: String)
    mutating func regla()
}

extension DestinoTicket {
    mutating func texto(_ text: String, _ mas: String = "", grande: Bool = false, negrita: Bool = false, margen: Int = 0, sangria: Int = 0) {
        texto(text, mas, grande: grande, negrita: negrita, margen: margen, sangria: sangria)
    }
}

extension TicketImpreso: DestinoTicket {
    public mutating func texto(_ text: String, _ mas: String, grande: Bool, negrita: Bool, margen: Int, sangria: Int) {
        lineas.append(.texto(mas.isEmpty ? text : text + mas, grande: grande, negrita: negrita, margen: margen, sangria: sangria))
    }

    public mutating func columnas(_ izquierda: String, _ derecha: String) { lineas.append(.columnas(izquierda, derecha)) }

    public mutating func regla() { lineas.append(.regla) }
}

/// A ticket written as `TicketImpreso.guardado`'s bytes, line by line.
public struct TicketGuardado: DestinoTicket {
    public private(set) var bytes: [UInt8] = []

    public init(capacidad: Int = 512) { bytes.reserveCapacity(capacidad) }

    public mutating func texto(_ text: String, _ mas: String, grande: Bool, negrita: Bool, margen: Int, sangria: Int) {
        bytes.append(UInt8(ascii: "T"))
        if grande { bytes.append(UInt8(ascii: "G")) }
        if negrita { bytes.append(UInt8(ascii: "N")) }
        digits(margen)
        bytes.append(UInt8(ascii: ","))
        digits(sangria)
        bytes.append(UInt8(ascii: "|"))
        plano(text)
        plano(mas)
        bytes.append(0x0A)
    }

    public mutating func columnas(_ izquierda: String, _ derecha: String) {
        bytes += [UInt8(ascii: "C"), UInt8(ascii: "|")]
        plano(izquierda)
        bytes.append(0x1F)
        plano(derecha)
        bytes.append(0x0A)
    }

    public mutating func regla() { bytes += [UInt8(ascii: "R"), UInt8(ascii: "|"), 0x0A] }

    /// A row (`F`) or a QR code (`Q`).
    mutating func linea(_ kind: Unicode.Scalar, _ text: String) {
        bytes += [UInt8(ascii: kind), UInt8(ascii: "|")]
        plano(text)
        bytes.append(0x0A)
    }

    private mutating func digits(_ n: Int) {
        guard (0..<10).contains(n) else { return bytes += String(n).utf8 }
        bytes.append(UInt8(ascii: "0") + UInt8(n))
    }

    /// The text on one line: a line break or U+001F would end it (printed as a space).
    private mutating func plano(_ text: String) {
        var plain = true
        for byte in text.utf8 where byte == 0x0A || byte == 0x0D || byte == 0x1F {
            plain = false
            break
        }
        guard !plain else { return bytes += text.utf8 }
        bytes += String(text.map { $0.isNewline || $0 == "\u{1F}" ? " " : $0 }).utf8
    }
}

/// The ESC/POS bytes of tickets (Epson's command set, which the kitchens'
/// 80 mm printers speak): pure, text in, bytes out. Text goes in a code page
/// the printer is set to (`ESC t`): CP858 (CP850 with `€`) or Windows-1252,
/// encoded by the system's iconv; a character neither holds prints as `?`.
public enum EscPos {
    /// The code pages comanda prints in, with their `ESC t` number on Epson's table.
    public enum CodigoPagina: String, Sendable, CaseIterable, Codable {
        case cp858, wpc1252

        /// `ESC t` n on Epson's table (19: PC858 Euro; 16: WPC1252).
        public var numero: UInt8 { self == .cp858 ? 19 : 16 }

        var iconvName: String { self == .cp858 ? "CP858" : "CP1252" }
    }

    /// How a QR code is printed: the printer's own (`GS ( k`, model 2,
    /// correction M) or a raster image of the same code (`GS v 0`) for a
    /// printer without QR support.
    public enum ModoQR: String, Sendable, CaseIterable, Codable {
        case nativo, imagen
    }

    /// What a printer needs for its bytes.
    public struct Formato: Sendable, Equatable {
        public var columnas: Int
        public var codigoPagina: CodigoPagina
        /// `ESC t`'s number when the printer's table differs from Epson's.
        public var numeroPagina: UInt8?
        public var qr: ModoQR

        public init(columnas: Int = 48, codigoPagina: CodigoPagina = .cp858, numeroPagina: UInt8? = nil, qr: ModoQR = .nativo) {
            self.columnas = columnas
            self.codigoPagina = codigoPagina
            self.numeroPagina = numeroPagina
            self.qr = qr
        }
    }

    // The commands used, by name.
    static let esc: UInt8 = 0x1B, gs: UInt8 = 0x1D, lf: UInt8 = 0x0A
    /// `ESC @`: initialise.
    public static let inicio: [UInt8] = [0x1B, 0x40]
    /// `GS V 0`: full cut, after feeding the paper past the cutter (`ESC d 4`).
    public static let corte: [UInt8] = [0x1B, 0x64, 0x04, 0x1D, 0x56, 0x00]
    /// `ESC p 0 25 250`: the drawer's pulse on pin 2 (50 ms on, 500 ms off).
    public static let cajon: [UInt8] = [0x1B, 0x70, 0x00, 0x19, 0xFA]
    /// `DLE EOT 1` (printer status: offline bit) and `DLE EOT 4` (paper roll sensor).
    public static let estadoImpresora: [UInt8] = [0x10, 0x04, 0x01]
    public static let estadoPapel: [UInt8] = [0x10, 0x04, 0x04]

    /// The paper sensor's answer to `DLE EOT 4` says the roll is out (bits 5 and 6).
    public static func sinPapel(_ respuesta: UInt8) -> Bool { respuesta & 0x60 == 0x60 }
    /// The printer status's answer to `DLE EOT 1` says it is offline (bit 3).
    public static func fueraDeLinea(_ respuesta: UInt8) -> Bool { respuesta & 0x08 != 0 }

    /// The ticket's bytes for a printer: `ESC @`, the code page, `cabecera`
    /// first in double size when given (*REIMPRESIÓN*, *RESPALDO DE …*),
    /// the lines, and a full cut. `modulos` gives a QR code's modules (the
    /// raster image is drawn from them); a code it cannot make is printed as text.
    public static func bytes(_ ticket: TicketImpreso, formato: Formato, cabecera: [String] = [],
                             modulos: (String) -> [[Bool]]? = { _ in nil }) -> [UInt8] {
        var out = inicio + [esc, 0x74, formato.numeroPagina ?? formato.codigoPagina.numero]
        let encoder = Encoder(formato.codigoPagina)
        var lines = cabecera.map { TicketImpreso.Linea.texto($0, grande: true, negrita: true) }
        if !cabecera.isEmpty { lines.append(.regla) }
        lines += ticket.lineas
        for line in lines {
            switch line {
            case let .texto(text, grande, negrita, margen, sangria):
                if grande { out += [gs, 0x21, 0x11] }
                if negrita { out += [esc, 0x45, 0x01] }
                let full = grande ? formato.columnas / 2 : formato.columnas
                let left = min(max(0, margen), full / 2)
                let width = full - left
                for row in wrap(encoder.encode(text), width: width, indent: min(max(0, sangria), width / 2)) {
                    out += [UInt8](repeating: 0x20, count: left) + row + [lf]
                }
                if negrita { out += [esc, 0x45, 0x00] }
                if grande { out += [gs, 0x21, 0x00] }
            case let .columnas(left, right):
                let l = encoder.encode(left), r = encoder.encode(right)
                if l.count + 1 + r.count <= formato.columnas {
                    out += l + [UInt8](repeating: 0x20, count: formato.columnas - l.count - r.count) + r + [lf]
                } else {
                    for row in wrap(l, width: formato.columnas, indent: 0) { out += row + [lf] }
                    out += [UInt8](repeating: 0x20, count: max(0, formato.columnas - r.count)) + r.prefix(formato.columnas) + [lf]
                }
            case .fila(let text):
                out += encoder.encode(text).prefix(formato.columnas) + [lf]
            case .regla:
                out += [UInt8](repeating: 0x2D, count: formato.columnas) + [lf]
            case .qr(let text):
                out += [esc, 0x61, 0x01]   // centred
                switch formato.qr {
                case .nativo: out += qrNativo(text)
                case .imagen:
                    if let rows = modulos(text) { out += raster(rows, columnas: formato.columnas) } else {
                        for row in wrap(encoder.encode(text), width: formato.columnas, indent: 0) { out += row + [lf] }
                    }
                }
                out += [lf, esc, 0x61, 0x00]
            }
        }
        return out + corte
    }

    /// `GS ( k`: model 2, module size 6, correction M, the data stored, then printed.
    public static func qrNativo(_ text: String) -> [UInt8] {
        let data = Array(text.utf8)
        let stored = data.count + 3
        return [gs, 0x28, 0x6B, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00]      // fn 165: model 2
            + [gs, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43, 0x06]             // fn 167: module size 6 dots
            + [gs, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x45, 0x31]             // fn 169: error correction M
            + [gs, 0x28, 0x6B, UInt8(stored & 0xFF), UInt8(stored >> 8), 0x31, 0x50, 0x30] + data   // fn 180: store
            + [gs, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x51, 0x30]             // fn 181: print
    }

    /// The dots per module of a raster QR code on a printer of `columnas`
    /// (a 48-column 80 mm printer is 576 dots across, 12 a column): as big
    /// as fits half the paper, 2 at least.
    static func escala(modulos: Int, columnas: Int) -> Int {
        max(2, min(8, (columnas * 12 / 2) / (modulos + 8)))
    }

    /// `GS v 0`: the modules as a raster image, black dots, with the quiet
    /// zone of 4 modules, each module `escala` dots square.
    public static func raster(_ rows: [[Bool]], columnas: Int) -> [UInt8] {
        let scale = escala(modulos: rows.count, columnas: columnas)
        let quiet = 4
        let side = (rows.count + 2 * quiet) * scale
        let bytesPerRow = (side + 7) / 8
        var out: [UInt8] = [gs, 0x76, 0x30, 0x00, UInt8(bytesPerRow & 0xFF), UInt8(bytesPerRow >> 8), UInt8(side & 0xFF), UInt8(side >> 8)]
        out.reserveCapacity(out.count + bytesPerRow * side)
        for y in 0..<side {
            let my = y / scale - quiet
            var byte: UInt8 = 0
            for x in 0..<(bytesPerRow * 8) {
                let mx = x / scale - quiet
                let dark = x < side && my >= 0 && my < rows.count && mx >= 0 && mx < rows.count && rows[my][mx]
                if dark { byte |= 0x80 >> UInt8(x % 8) }
                if x % 8 == 7 { out.append(byte); byte = 0 }
            }
        }
        return out
    }

    /// Encoded text cut into rows of at most `width` bytes (one byte, one
    /// column on the paper), at spaces where it can, a word longer than a
    /// row cut where the row is full; rows after the first after `indent` spaces.
    static func wrap(_ text: [UInt8], width: Int, indent: Int) -> [[UInt8]] {
        let words = text.split(separator: 0x20, omittingEmptySubsequences: true)
        guard !words.isEmpty else { return [[]] }
        var rows: [[UInt8]] = []
        var row: [UInt8] = []
        let pad = [UInt8](repeating: 0x20, count: indent)
        for word in words {
            var word = Array(word)
            while !word.isEmpty {
                let start = rows.isEmpty ? 0 : indent
                let used = row.isEmpty ? start : row.count
                let gap = row.isEmpty ? 0 : 1
                if used + gap + word.count <= width {
                    if row.isEmpty { row = rows.isEmpty ? [] : pad } else { row.append(0x20) }
                    row += word
                    word = []
                } else if row.isEmpty {
                    // Alone on its row and still too long: cut it where the row is full.
                    let room = width - start
                    rows.append((rows.isEmpty ? [] : pad) + word.prefix(room))
                    word.removeFirst(room)
                } else {
                    rows.append(row)
                    row = []
                }
            }
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }

    /// Text to a code page: precomposed first (an accent typed as a
    /// combining mark prints on its letter), control characters as spaces,
    /// each character the page does not hold as `?`.
    struct Encoder {
        let table: [Unicode.Scalar: UInt8]

        init(_ page: CodigoPagina) { table = page == .cp858 ? Self.cp858 : Self.wpc1252 }

        func encode(_ text: String) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count)
            for character in text.precomposedStringWithCanonicalMapping {
                let scalars = character.unicodeScalars
                if let ascii = character.asciiValue, scalars.count == 1 {
                    out.append(ascii < 0x20 || ascii == 0x7F ? 0x20 : ascii)
                } else if character.isNewline || scalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                    out.append(0x20)
                } else if scalars.count == 1, let scalar = scalars.first, let byte = table[scalar] {
                    out.append(byte)
                } else {
                    out.append(0x3F)
                }
            }
            return out
        }

        static let cp858 = upperHalf("CP858")
        static let wpc1252 = upperHalf("CP1252")

        /// What each byte 0x80…0xFF of `page` is, read by the system's iconv once.
        private static func upperHalf(_ page: String) -> [Unicode.Scalar: UInt8] {
            var table: [Unicode.Scalar: UInt8] = [:]
            #if canImport(Glibc)
            let cd = iconv_open("UTF-8", page)
            guard cd != iconv_t(bitPattern: -1) else { return table }
            defer { iconv_close(cd) }
            for byte in UInt8(0x80)...UInt8(0xFF) {
                var input = [CChar(bitPattern: byte)]
                var output = [CChar](repeating: 0, count: 8)
                let written: Int = input.withUnsafeMutableBufferPointer { inBuffer in
                    output.withUnsafeMutableBufferPointer { outBuffer in
                        var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                        var inLeft = inBuffer.count
                        var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                        var outLeft = outBuffer.count
                        guard iconv(cd, &inPointer, &inLeft, &outPointer, &outLeft) != -1, inLeft == 0 else { return -1 }
                        return outBuffer.count - outLeft
                    }
                }
                guard written > 0 else { continue }
                let text = String(decoding: output[0..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                // Box drawing and the like are not text a ticket writes; a letter's first byte wins.
                if let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1, table[scalar] == nil { table[scalar] = byte }
            }
            #endif
            return table
        }
    }
}
