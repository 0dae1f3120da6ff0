import Foundation

/// The producer's declaration of conformity (*declaración responsable*, RD
/// 1007/2023 art. 13; its contents as Orden HAC/1177/2024 art. 15.1 lists
/// them, in that order) for this version of comanda: served as text at
/// `GET /verifactu/declaracion` and printed by `comanda verifactu declaracion`.
enum VerifactuDeclaracion {
    /// Who produces the system: its name, NIF and postal address (nil: not set).
    struct Productor: Sendable {
        var nombre: String
        var nif: String
        var direccion: String?
    }

    static func texto(_ productor: Productor) -> String {
        let sinDato = "(sin indicar: configure verifactu.productor)"
        let nombre = productor.nombre.isEmpty ? sinDato : productor.nombre
        let nif = productor.nif.isEmpty ? sinDato : productor.nif
        let direccion = productor.direccion ?? "(sin indicar: configure verifactu.productor.direccion o empresa.direccion)"
        // The place: the address's locality (its last part), then the country.
        let localidad = productor.direccion?.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        let lugar = localidad.map { "\($0), España" } ?? "España"
        let partes = ComandaVersion.fecha.split(separator: "-")
        let fecha = partes.count == 3 ? "\(partes[2])-\(partes[1])-\(partes[0])" : ComandaVersion.fecha
        return """
            DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN
            (artículo 13 del Reglamento aprobado por el Real Decreto 1007/2023, de 5 de diciembre,
            y artículo 15 de la Orden HAC/1177/2024, de 17 de octubre)

            a) Nombre del sistema informático: comanda
            b) Código identificador del sistema informático: CO
            c) Identificador completo de la versión: \(ComandaVersion.numero)
            d) Componentes, hardware y software, y lo que hace el sistema:
               Es solo software: un servidor (un único programa) que se instala en un
               ordenador del propio restaurante, con Linux, y guarda sus datos en una base
               de datos SQLite en ese mismo ordenador; el personal y los clientes lo usan
               desde el navegador de sus móviles, tabletas u ordenadores en la red del local.
               Lleva la carta, los pedidos, la cocina, la lista de espera, las mesas y la
               cuenta. Expide facturas simplificadas (y completas cuando se piden); por cada
               factura y cada anulación genera en ese momento su registro de facturación,
               encadenado al anterior por su huella (SHA-256), que no se modifica ni se
               borra nunca; imprime en cada factura su código QR; y remite cada registro a
               la sede electrónica de la AEAT por su servicio web, con el certificado del
               obligado tributario, desde una cola que conserva los registros mientras no
               hay conexión y los envía, en orden, cuando vuelve.
            e) El sistema se ha producido para funcionar exclusivamente como VERI*FACTU: S (sí)
            f) Permite ser usado por varios obligados tributarios, o por un mismo usuario
               para la facturación de varios obligados tributarios: N (no); cada instalación
               factura para un solo obligado tributario.
            g) Tipos de firma de los registros de facturación y de evento: no aplica, pues el
               sistema funciona exclusivamente como VERI*FACTU (los registros se remiten a la
               AEAT y no se firman).
            h) Razón social de la persona o entidad productora: \(nombre)
            i) NIF de la persona o entidad productora: \(nif)
            j) Dirección postal completa de contacto de la persona o entidad productora:
               \(direccion)
            k) La persona o entidad productora declara que este sistema informático, en la
               versión indicada, cumple con lo dispuesto en el artículo 29.2.j) de la Ley
               58/2003, de 17 de diciembre, General Tributaria; en el Reglamento que
               establece los requisitos que deben adoptar los sistemas y programas
               informáticos o electrónicos que soporten los procesos de facturación de
               empresarios y profesionales, y la estandarización de formatos de los registros
               de facturación, aprobado por el Real Decreto 1007/2023, de 5 de diciembre; en
               la Orden HAC/1177/2024, de 17 de octubre; y en el resto de la normativa que
               regula los requisitos de los sistemas informáticos de facturación.
            l) Fecha y lugar en que se suscribe esta declaración: \(fecha), \(lugar)

            """
    }
}
