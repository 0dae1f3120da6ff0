@testable import ComandaApp
import ComandaCore
import Foundation
import PropertyBased
import Testing

/// The order answers are written by `JSONWriter`; these pin them to what JSONEncoder
/// wrote before (money, key order) and to the data (any name).
@Suite struct OrderJSONTests {
    /// The text JSONEncoder writes for the cents as a `Decimal`.
    private func encoderText(_ cents: Int) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode([Decimal(cents) / 100]), as: UTF8.self)
        return String(text.dropFirst().dropLast())
    }

    @Test func moneyIsTheTextJSONEncoderWroteForEveryCentUpTo200Euros() throws {
        for cents in 0...20_000 { #expect(JSONWriter.moneyText(cents) == (try encoderText(cents)), "\(cents)") }
        for cents in [-1, -5, -10, -750, -100_000, 99_999_999, 100_000_000, 123_456_789_01] {
            #expect(JSONWriter.moneyText(cents) == (try encoderText(cents)), "\(cents)")
        }
    }

    /// Integers are written digit by digit: the same text as Swift's own, at the edges of every width.
    @Test func integersAtTheirEdges() {
        let values: [String] = [0, 7, 10, -1, -10, Int64.max, Int64.min, 1_234_567_890].map { n in
            JSONWriter.write { $0.int(n) }
        }
        #expect(values == ["0", "7", "10", "-1", "-10", String(Int64.max), String(Int64.min), "1234567890"])
        #expect(JSONWriter.write { $0.int(UInt64.max) } == String(UInt64.max))
        #expect(JSONWriter.write { $0.int(Int8.min) } == "-128")
    }

    @Test func largeTotalsToo() async {
        await propertyCheck(count: 2_000, input: Gen<Int>.int(in: 0...10_000_000_000)) { cents in
            #expect(JSONWriter.moneyText(cents) == (try? encoderText(cents)), "\(cents)")
        }
    }

    /// Keys sorted, `null`s while open, money as decimals: byte for byte.
    @Test func anOrderReadsExactlyAsTheContractShowsIt() {
        let open = Pedido(id: 7, estado: .abierto, fecha: nil, direccion: nil, telefono: nil, lineas: [
            LineaPedido(id: 3, platoID: 12, nombre: "Croquetas \"caseras\"", precioCentimos: 750, cantidad: 2),
            LineaPedido(id: 4, platoID: 5, nombre: "Pan", precioCentimos: 105, cantidad: 1),
        ])
        #expect(OrderJSON.pedido(open) == #"{"direccion":null,"estado":"abierto","eventos":[],"factura_id":null,"fecha":null,"id":7,"lineas":["#
            + #"{"cantidad":2,"id":3,"nombre":"Croquetas \"caseras\"","opciones":[],"plato_id":12,"precio_unitario":7.5,"subtotal":15},"#
            + #"{"cantidad":1,"id":4,"nombre":"Pan","opciones":[],"plato_id":5,"precio_unitario":1.05,"subtotal":1.05}"#
            + #"],"listo_estimado":null,"motivo":null,"num_platos":3,"telefono":null,"total":16.05}"#)
        var placed = Pedido(id: 8, estado: .rechazado, fecha: 0, direccion: "Calle Mayor 1", telefono: "+34 600 000 000", lineas: [],
                            listoEstimado: 900, motivo: "Sin \"gas\"", eventos: [EventoPedido(estado: .realizado, fecha: 0),
                                                                                EventoPedido(estado: .rechazado, fecha: 60)],
                            cliente: (id: 3, nombre: "Ana <b>"))
        let placedBody = #""direccion":"Calle Mayor 1","estado":"rechazado","eventos":[{"estado":"realizado","fecha":"1970-01-01T00:00:00Z"},"#
            + #"{"estado":"rechazado","fecha":"1970-01-01T00:01:00Z"}],"factura_id":41,"fecha":"1970-01-01T00:00:00Z","#
            + #""id":8,"lineas":[],"listo_estimado":"1970-01-01T00:15:00Z","motivo":"Sin \"gas\"","num_platos":0,"#
            + #""telefono":"+34 600 000 000","total":0}"#
        placed.facturaID = 41
        #expect(OrderJSON.pedido(placed) == "{" + placedBody)
        // The kitchen's view adds the customer's id and name, and nothing else of theirs.
        #expect(OrderJSON.pedido(placed, cocina: true) == #"{"cliente":{"id":3,"nombre":"Ana <b>"},"# + placedBody)
        #expect(OrderJSON.historial([]) == "[]")
        #expect(OrderJSON.historial([ResumenPedido(id: 2, fecha: 60, totalCentimos: 1_990, numPlatos: 3)])
            == #"[{"estado":"realizado","fecha":"1970-01-01T00:01:00Z","id":2,"num_platos":3,"total":19.9}]"#)
    }

    /// Any text a name, address or phone may hold parses back exactly.
    @Test func anyTextParsesBackExactly() async {
        let pieces = ["\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "😀", "👨‍👩‍👧",
                      "José", "山田", "محمد", "Дмитрий", "\u{301}", "a", " ", "</script>", "\u{FEFF}"]
        let text = Gen<String?>.element(of: pieces).map { $0 ?? "" }.array(of: 0...12).map { $0.joined() }
        await propertyCheck(count: 300, input: text, text, text) { nombre, direccion, telefono in
            let pedido = Pedido(id: 1, estado: .realizado, fecha: 1_700_000_000, direccion: direccion, telefono: telefono,
                                lineas: [LineaPedido(id: 2, platoID: 3, nombre: nombre, precioCentimos: 1_234, cantidad: 100)])
            let parsed = try? JSONSerialization.jsonObject(with: Data(OrderJSON.pedido(pedido).utf8)) as? [String: Any]
            let linea = (parsed?["lineas"] as? [[String: Any]])?.first
            #expect(linea?["nombre"] as? String == nombre)
            #expect(parsed?["direccion"] as? String == direccion)
            #expect(parsed?["telefono"] as? String == telefono)
            #expect(linea?["subtotal"] as? Double == 1_234.0)
            #expect(parsed?["total"] as? Double == 1_234.0)
        }
    }
}
