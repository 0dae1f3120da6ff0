import ComandaCore
import ComandaQR
import Foundation
import Testing

@Suite struct VerifactuHashTests {
    static let first = Verifactu.Registro.alta(idEmisor: "89890001K", numSerie: "12345678/G33", fecha: "01-01-2024", tipoFactura: "F1",
                                               cuotaTotal: "12.35", importeTotal: "123.45", fechaHoraHuso: "2024-01-01T19:20:30+01:00")

    /// The AEAT's published example, in the contract: its text and its hash.
    @Test func theFirstExampleOfTheAEAT() {
        #expect(Self.first.texto(anterior: "") == "IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024"
            + "&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00")
        #expect(Self.first.huella(anterior: "") == "3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60")
    }

    /// The AEAT document's chained record and its cancellation (the issue gives their hashes' ends).
    @Test func theChainedAndTheCancellationExamples() {
        let h1 = Self.first.huella(anterior: "")
        let second = Verifactu.Registro.alta(idEmisor: "89890001K", numSerie: "12345679/G34", fecha: "01-01-2024", tipoFactura: "F1",
                                             cuotaTotal: "12.35", importeTotal: "123.45", fechaHoraHuso: "2024-01-01T19:20:35+01:00")
        let h2 = second.huella(anterior: h1)
        #expect(h2.hasPrefix("F7B94CFD") && h2.hasSuffix("2A2B97"), "\(h2)")
        let cancel = Verifactu.Registro.anulacion(idEmisor: "89890001K", numSerie: "12345679/G34", fecha: "01-01-2024",
                                                  fechaHoraHuso: "2024-01-01T19:20:40+01:00")
        let h3 = cancel.huella(anterior: h2)
        #expect(h3.hasPrefix("177547C0") && h3.hasSuffix("F90C68"), "\(h3)")
        #expect(h3.count == 64 && h3 == h3.uppercased())
    }

    @Test func datesAmountsNumbersAndTheQRText() throws {
        let madrid = try #require(TimeZone(identifier: "Europe/Madrid"))
        // 2026-12-31 23:30 UTC is already 2027 in Madrid.
        let t: Int64 = 1_798_759_800
        #expect(Verifactu.fecha(t, zone: madrid) == "01-01-2027")
        #expect(Verifactu.anio(t, zone: madrid) == 2027)
        #expect(Verifactu.fechaHoraHuso(t, zone: madrid) == "2027-01-01T00:30:00+01:00")
        // Summer time: +02:00.
        #expect(Verifactu.fechaHoraHuso(1_783_000_000, zone: madrid).hasSuffix("+02:00"))
        #expect(Verifactu.importe(300) == "3.00" && Verifactu.importe(12345) == "123.45" && Verifactu.importe(5) == "0.05")
        #expect(Verifactu.numero(serie: "T/", anio: 2026, secuencia: 1) == "T/2026-000001")
        #expect(Verifactu.qr(nif: "89890001K", numSerie: "T/2026-000001", fecha: "01-01-2026", importe: "12.30")
            == "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=T%2F2026-000001&fecha=01-01-2026&importe=12.30")
        // Sending to the AEAT's test environment: its test host.
        #expect(Verifactu.qr(nif: "89890001K", numSerie: "T/2026-000001", fecha: "01-01-2026", importe: "12.30", pruebas: true)
            == "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=T%2F2026-000001&fecha=01-01-2026&importe=12.30")
    }

    /// Tax ids with their check character, as a table: each valid one, and
    /// the same with its check character one off (and other shapes) refused.
    @Test func nifCheckCharacters() {
        let valid = [
            "89890001K", "12345678Z", "00000000T", "99999999R",          // NIF: the number mod 23's letter
            "X1234567L", "Y1234567X", "Z1234567R", "x0000000t",          // NIE: X, Y, Z as 0, 1, 2
            "B12345674", "A58818501", "B00000000", "H12345674",          // CIF with a digit (A, B, E, H)
            "Q1234567D", "P0000000J", "S1234567D", "W1234567D", "q1234567d", // CIF with a letter
            "G12345674", "G1234567D", "K1234567D",                        // either (G), and a K NIF
        ]
        for good in valid { #expect(Empresa.nifValido(good), "\(good)") }
        // One off: the next check character of its kind.
        for good in valid {
            var c = Array(good.uppercased())
            let last = c[8]
            if let d = last.wholeNumberValue { c[8] = Character(String((d + 1) % 10)) } else {
                let abc = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
                c[8] = abc[((abc.firstIndex(of: last) ?? 0) + 1) % abc.count]
            }
            #expect(!Empresa.nifValido(String(c)), "\(String(c)) (one off \(good))")
        }
        for bad in ["", "1234567Z", "123456789", "K12345678", "X12345678", "B1234567", "B123456789", "12345678Ñ", "ABCDEFGHI",
                    "B12345678", "A1234567J", "Q12345674", "I1234567D", "12345678A"] {
            #expect(!Empresa.nifValido(bad), "\(bad)")
        }
    }

    /// libqrencode's code for a text: square, of a real version's size (21 + 4k modules), and a PNG with its header.
    /// A full invoice's customer: the tax id trimmed and upper case, its
    /// check character right; the name and address within their lengths.
    @Test func aCustomerIsCheckedFieldByField() throws {
        #expect(try Cliente.validado(nif: " x1234567l ", nombre: " Ana ", direccion: "Calle Luna 4") == Cliente(nif: "X1234567L", nombre: "Ana", direccion: "Calle Luna 4"))
        for (nif, nombre, direccion, field) in [("X1234567M", "Ana", "C", "cliente.nif"), ("", "Ana", "C", "cliente.nif"),
                                                ("B12345674", "", "C", "cliente.nombre"), ("B12345674", String(repeating: "ñ", count: 121), "C", "cliente.nombre"),
                                                ("B12345674", "Ana", " ", "cliente.direccion"), ("B12345674", "Ana", "a\u{0007}b", "cliente.direccion")] {
            #expect(throws: CuentaError.self, "\(field)") { try Cliente.validado(nif: nif, nombre: nombre, direccion: direccion) }
            do { _ = try Cliente.validado(nif: nif, nombre: nombre, direccion: direccion) } catch {
                if case .invalid(let f, _) = error { #expect(f == field) } else { Issue.record("\(error)") }
            }
        }
        #expect(try Cliente.validado(nif: "B12345674", nombre: String(repeating: "名", count: 120), direccion: "東京").nombre.count == 120)
    }

    /// A full invoice's unit price before VAT: four decimals at most, half up.
    @Test func unitPricesBeforeVAT() {
        func price(_ cents: Int, _ iva: Int) -> Int? { LineaFactura(nombre: "x", cantidad: 1, importeCentimos: cents, iva: iva, precioUnitarioCentimos: cents).precioSinIVADiezmilesimas }
        #expect(price(800, 10) == 72_727)      // 7.27272…
        #expect(price(450, 21) == 37_190)      // 3.71900…
        #expect(price(1100, 10) == 100_000)
        #expect(price(1, 21) == 83)            // 0.00826…
        #expect(price(500, 0) == 50_000)
        #expect(Money.cuatroDecimales(72_727) == "7,2727" && Money.cuatroDecimales(37_190) == "3,719" && Money.cuatroDecimales(100_000) == "10,00")
        #expect(LineaFactura(nombre: "x", cantidad: 1, importeCentimos: 5).precioSinIVADiezmilesimas == nil, "an old line kept neither")
    }

    @Test func theQRCodeOfAnInvoice() throws {
        let text = Verifactu.qr(nif: "B12345674", numSerie: "T2026-000001", fecha: "26-11-2026", importe: "100.00")
        let rows = try #require(QRCode.modules(text))
        #expect(rows.count >= 21 && (rows.count - 21) % 4 == 0 && rows.allSatisfy { $0.count == rows.count })
        // The three finder patterns: dark corners.
        #expect(rows[0][0] && rows[0][rows.count - 1] && rows[rows.count - 1][0])
        let png = try #require(QRCode.png(text, scale: 4))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let side = (rows.count + 8) * 4
        #expect(Array(png[16..<24]) == [0, 0, UInt8(side >> 8), UInt8(side & 0xFF), 0, 0, UInt8(side >> 8), UInt8(side & 0xFF)])
        #expect(QRCode.modules(String(repeating: "x", count: 5000)) == nil)
    }
}

@Suite struct BreakdownTests {
    /// Random checks with lines at 0/4/10/21 %, paid by random sequences of
    /// amounts, lines and shares: every invoice's parts add to its amount,
    /// `base + cuota = part`, no part negative, and a check's invoices add
    /// up rate by rate to its lines.
    @Test func invoicesAddUpRateByRate() {
        var random = SplitMix64(seed: 20261126)
        for round in 0..<2000 {
            let lineas: [LineaCuenta] = (0..<Int.random(in: 1...12, using: &random)).map { i in
                LineaCuenta(id: Int64(i + 1), cuentaID: 1, platoID: 1, nombre: "x", precioUnitarioCentimos: Int.random(in: 1...5000, using: &random),
                            cantidad: Int.random(in: 1...4, using: &random), estado: .servida, iva: [0, 4, 10, 21].randomElement(using: &random) ?? 10)
            }
            let total = lineas.reduce(0) { $0 + $1.subtotalCentimos }
            var facturado: [[ParteIVA]] = []
            var paidLines = Set<Int64>()
            var cobrado = 0
            var steps = 0
            while cobrado < total, steps < 20 {
                steps += 1
                let pendiente = total - cobrado
                let porTipo = Cobro.pendientePorTipo(lineas: lineas, facturado: facturado)
                #expect(porTipo.values.reduce(0, +) == pendiente)
                #expect(porTipo.values.allSatisfy { $0 >= 0 }, "round \(round): \(porTipo)")
                var importe: Int
                var parts: [Int: Int]
                switch Int.random(in: 0...3, using: &random) {
                case 0:
                    importe = Int.random(in: 1...pendiente, using: &random)
                    parts = Cobro.partes(importe: importe, porTipo: porTipo)
                case 1 where paidLines.isEmpty && facturado.isEmpty:
                    // By lines: only on a check not yet paid otherwise, so each line's money is still there.
                    let chosen = lineas.filter { _ in Bool.random(using: &random) }
                    guard !chosen.isEmpty else { continue }
                    chosen.forEach { paidLines.insert($0.id) }
                    var byRate: [Int: Int] = [:]
                    for l in chosen { byRate[l.iva, default: 0] += l.subtotalCentimos }
                    importe = byRate.values.reduce(0, +)
                    parts = Cobro.partes(importe: importe, porTipo: byRate)
                    #expect(parts == byRate.filter { $0.value != 0 })
                case 2:
                    importe = Cobro.parte(pendiente: pendiente, partes: Int.random(in: 2...6, using: &random))
                    parts = Cobro.partes(importe: importe, porTipo: porTipo)
                default:
                    importe = pendiente
                    parts = Cobro.partes(importe: importe, porTipo: porTipo)
                }
                let desglose = Cobro.desglose(parts)
                #expect(desglose.reduce(0) { $0 + $1.parte } == importe, "round \(round)")
                #expect(desglose.allSatisfy { $0.base + $0.cuota == $0.parte && $0.parte > 0 && $0.cuota >= 0 })
                #expect(desglose.map(\.iva) == desglose.map(\.iva).sorted())
                facturado.append(desglose)
                cobrado += importe
            }
            if cobrado == total {
                let left = Cobro.pendientePorTipo(lineas: lineas, facturado: facturado)
                #expect(left.values.allSatisfy { $0 == 0 }, "round \(round): the invoices do not add up rate by rate: \(left)")
            }
        }
    }

    /// 100,00 € in three shares: 33,33 then 33,34 then the rest 33,33.
    @Test func sharesAddUpToTheCent() {
        let first = Cobro.parte(pendiente: 10000, partes: 3)
        let second = Cobro.parte(pendiente: 10000 - first, partes: 2)
        let amounts = [first, second, 10000 - first - second]
        #expect(amounts == [3333, 3334, 3333])
    }

    /// The remainder cent goes to the largest part; on a tie to the higher rate.
    @Test func theRemainderCent() {
        // Rounded up, the parts pass the amount by a cent: the largest (on a tie the higher rate) gives it back.
        #expect(Cobro.partes(importe: 1, porTipo: [10: 100, 21: 100]) == [10: 1])
        #expect(Cobro.partes(importe: 101, porTipo: [10: 100, 21: 100]) == [10: 51, 21: 50])
        // Rounded down, a cent is missing: the largest (on a tie the higher rate) takes it.
        #expect(Cobro.partes(importe: 100, porTipo: [4: 100, 10: 100, 21: 100]) == [4: 33, 10: 33, 21: 34])
        #expect(Cobro.partes(importe: 100, porTipo: [4: 100, 10: 200]) == [4: 33, 10: 67])
        #expect(Cobro.desglose([10: 1100, 21: 121]) == [ParteIVA(iva: 10, base: 1000, cuota: 100), ParteIVA(iva: 21, base: 100, cuota: 21)])
    }
}
