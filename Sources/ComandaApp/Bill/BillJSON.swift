import ComandaCore
import ComandaStore

/// The bill as the API shows it (`JSONWriter`, keys sorted).
enum BillJSON {
    static func factura(_ f: Factura) -> String { JSONWriter.write(capacity: 700 + f.lineas.count * 80) { $0.factura(f) } }

    static func facturas(_ list: [Factura]) -> String {
        JSONWriter.write(capacity: 64 + list.count * 800) { w in w.array(list) { w, f in w.factura(f) } }
    }

    /// `{"cobro", "cuenta", "factura"}`.
    static func cobro(_ pago: Pago, _ factura: Factura, _ cuenta: Cuenta) -> String {
        JSONWriter.write(capacity: 1600 + cuenta.lineas.count * 260) { w in
            w.object { w in
                w.key("cobro")
                w.object { w in
                    w.key("cambio"); w.money(pago.cambioCentimos)
                    w.key("entregado"); w.money(pago.entregadoCentimos)
                    w.key("fecha"); w.time(pago.fecha)
                    w.key("id"); w.int(pago.id)
                    w.key("importe"); w.money(pago.importeCentimos)
                    w.key("metodo"); w.string(pago.metodo.rawValue)
                    w.key("propina"); w.money(pago.propinaCentimos)
                }
                w.key("cuenta"); w.cuenta(cuenta)
                w.key("factura"); w.factura(factura)
            }
        }
    }

    /// `{"registros": […]}`, each record with the AEAT's field names.
    static func registros(_ list: [(RegistroFacturacion, EnvioRegistro)]) -> String {
        JSONWriter.write(capacity: 64 + list.count * 800) { w in
            w.object { w in
                w.key("registros")
                w.array(list) { w, item in
                    let (r, envio) = item
                    w.object { w in
                        switch r.registro {
                        case let .alta(id, num, fecha, tipo, cuota, importe, gen):
                            w.key("CuotaTotal"); w.string(cuota)
                            w.key("FechaExpedicionFactura"); w.string(fecha)
                            w.key("FechaHoraHusoGenRegistro"); w.string(gen)
                            w.key("Huella"); w.string(r.huella)
                            w.key("IDEmisorFactura"); w.string(id)
                            w.key("ImporteTotal"); w.string(importe)
                            w.key("NumSerieFactura"); w.string(num)
                            w.key("TipoFactura"); w.string(tipo)
                        case let .anulacion(id, num, fecha, gen):
                            w.key("FechaExpedicionFacturaAnulada"); w.string(fecha)
                            w.key("FechaHoraHusoGenRegistro"); w.string(gen)
                            w.key("Huella"); w.string(r.huella)
                            w.key("IDEmisorFacturaAnulada"); w.string(id)
                            w.key("NumSerieFacturaAnulada"); w.string(num)
                        }
                        w.key("anterior")
                        if let a = r.anterior {
                            w.object { w in
                                w.key("FechaExpedicionFactura"); w.string(a.fecha)
                                w.key("Huella"); w.string(a.huella)
                                w.key("IDEmisorFactura"); w.string(a.idEmisor)
                                w.key("NumSerieFactura"); w.string(a.numSerie)
                            }
                        } else {
                            w.null()
                        }
                        w.key("envio")
                        w.object { w in
                            w.key("codigo"); if let c = envio.codigo { w.int(c) } else { w.null() }
                            w.key("csv"); if let c = envio.csv { w.string(c) } else { w.null() }
                            w.key("descripcion"); if let d = envio.descripcion { w.string(d) } else { w.null() }
                            w.key("estado"); w.string(envio.estado)
                            w.key("fecha"); w.time(envio.fecha)
                            w.key("incidencia"); w.bool(envio.incidencia)
                        }
                        w.key("posicion"); w.int(r.posicion)
                        if case .alta = r.registro { w.key("tipo"); w.string("alta") } else { w.key("tipo"); w.string("anulacion") }
                    }
                }
            }
        }
    }

    static func caja(_ c: InformeCaja, desde: String, hasta: String) -> String {
        JSONWriter.write(capacity: 1024) { w in
            w.object { w in
                w.key("anuladas"); w.int(c.anuladas)
                w.key("descuentos"); w.array(c.descuentos) { w, d in
                    w.object { w in
                        w.key("cantidad"); w.int(d.cantidad)
                        w.key("gerente"); w.string(d.gerente)
                        w.key("importe"); w.money(d.importe)
                        w.key("motivo"); w.string(d.motivo)
                        w.key("nombre"); w.string(d.nombre)
                        w.key("porcentaje"); w.int(d.porcentaje)
                    }
                }
                w.key("desde"); w.string(desde)
                w.key("efectivo_en_caja"); w.money(c.efectivoEnCaja)
                w.key("facturas"); w.int(c.facturas)
                w.key("hasta"); w.string(hasta)
                w.key("iva"); w.array(c.iva) { w, p in
                    w.object { w in
                        w.key("base"); w.money(p.base)
                        w.key("cuota"); w.money(p.cuota)
                        w.key("iva"); w.int(p.iva)
                    }
                }
                w.key("lineas_anuladas"); w.array(c.lineasAnuladas) { w, l in
                    w.object { w in
                        w.key("cantidad"); w.int(l.cantidad)
                        w.key("gerente"); w.string(l.gerente)
                        w.key("motivo"); w.string(l.motivo)
                        w.key("nombre"); w.string(l.nombre)
                    }
                }
                w.key("pedidos"); w.int(c.pedidos)
                w.key("por_metodo"); w.array(c.porMetodo) { w, m in
                    w.object { w in
                        w.key("importe"); w.money(m.importe)
                        w.key("metodo"); w.string(m.metodo.rawValue)
                        w.key("propinas"); w.money(m.propinas)
                    }
                }
                w.key("propinas_por_camarero"); w.array(c.propinas) { w, p in
                    w.object { w in
                        w.key("id"); w.int(p.camarero.id)
                        w.key("nombre"); w.string(p.camarero.nombre)
                        w.key("propinas"); w.money(p.propinas)
                    }
                }
                w.key("total"); w.money(c.total)
                w.key("total_descuentos"); w.money(c.descuentos.reduce(0) { $0 + $1.importe })
            }
        }
    }
}

extension JSONWriter {
    mutating func factura(_ f: Factura) {
        object { w in
            w.key("cliente")
            if let c = f.cliente {
                w.object { w in
                    w.key("direccion"); w.string(c.direccion)
                    w.key("nif"); w.string(c.nif)
                    w.key("nombre"); w.string(c.nombre)
                }
            } else {
                w.null()
            }
            w.key("cuenta_id"); w.int(f.cuentaID)
            w.key("cuota_total"); w.money(f.cuotaCentimos)
            w.key("desglose"); w.array(f.desglose) { w, p in
                w.object { w in
                    w.key("base"); w.money(p.base)
                    w.key("cuota"); w.money(p.cuota)
                    w.key("iva"); w.int(p.iva)
                }
            }
            w.key("estado"); w.string(f.estado.rawValue)
            w.key("fecha"); w.time(f.fecha)
            w.key("huella"); w.string(f.huella)
            w.key("id"); w.int(f.id)
            w.key("importe_total"); w.money(f.importeCentimos)
            w.key("lineas"); w.array(f.lineas) { w, l in
                w.object { w in
                    w.key("cantidad"); w.int(l.cantidad)
                    w.key("descuento"); if let d = l.descuento { w.int(d) } else { w.null() }
                    w.key("importe"); w.money(l.importeCentimos)
                    // A full invoice names each line's rate and unit price before VAT (RD 1619/2012 art. 6.1.f).
                    if f.tipo.completa, let iva = l.iva, let precio = l.precioSinIVADiezmilesimas {
                        w.key("iva"); w.int(iva)
                        w.key("nombre"); w.string(l.nombre)
                        w.key("precio_unitario"); w.tenThousandths(precio)
                    } else {
                        w.key("nombre"); w.string(l.nombre)
                    }
                }
            }
            w.key("mesa"); w.string(f.mesa)
            w.key("metodo"); w.string(f.metodo.rawValue)
            w.key("numero"); w.string(f.numero)
            w.key("pedido_id"); w.int(f.pedidoID)
            w.key("qr"); w.string(f.qr)
            w.key("sustituida_por"); w.string(f.sustituidaPor)
            w.key("sustituye")
            if let numero = f.sustituye { w.array([numero]) { w, n in w.string(n) } } else { w.null() }
            w.key("tipo"); w.string(f.tipo.rawValue)
        }
    }
}

extension BillJSON {
    /// What became of a record at the AEAT.
    static let envioSchema: Spec = .obj([
        "estado": .oneOf(["sin_enviar", "aceptado", "aceptado_con_errores", "rechazado"]),
        "incidencia": ["type": "boolean", "description": "Made, or sent, while the AEAT could not be reached."],
        "codigo": ["type": ["integer", "null"], "description": "The AEAT's CodigoErrorRegistro."],
        "descripcion": .textOrNull,
        "csv": ["type": ["string", "null"], "description": "The secure verification code of the answer that accepted it."],
        "fecha": .nullable(.time),
    ], description: "What became of the record at the AEAT (`sin_enviar` until it answers about it).")

    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "Factura": .obj([
            "id": .integerID,
            "numero": ["type": "string", "description": "`{serieFacturas}{YYYY}-{NNNNNN}` (F1 and F3: `{serieFacturasCompletas}…`), no gap and no repeat within a series."],
            "fecha": .time,
            "tipo": ["type": "string", "enum": ["F2", "F1", "F3"], "description": "F2 simplified; F1 full, at payment; F3 full, replacing a simplified one."],
            "cuenta_id": .nullable(.integerID),
            "mesa": .textOrNull,
            "pedido_id": .nullable(.integerID),
            "cliente": .nullable(.obj(["nif": .text, "nombre": .text, "direccion": .text], description: "The business customer of a full invoice.")),
            "sustituye": ["type": ["array", "null"], "items": ["type": "string"], "maxItems": 1, "description": "An F3: the number of the simplified invoice it replaces."],
            "sustituida_por": ["type": ["string", "null"], "description": "A replaced simplified invoice: the number of its F3."],
            "importe_total": .money,
            "cuota_total": .money,
            "desglose": .list(.obj(["iva": .iva, "base": .money, "cuota": .money])),
            "lineas": .list(.obj(["nombre": .text, "cantidad": .integer(from: 1), "importe": .money,
                                   "descuento": ["type": ["integer", "null"], "minimum": 1, "maximum": 100,
                                                 "description": "The line's discount in percent (100: invited); `importe` is after it."],
                                   "iva": .iva,
                                   "precio_unitario": ["type": "number", "minimum": 0, "description": "F1 and F3 only: the unit price before VAT and discount, at most four decimals."]],
                                  required: ["nombre", "cantidad", "importe", "descuento"])),
            "metodo": .oneOf(["efectivo", "tarjeta", "otro"]),
            "estado": .oneOf(["emitida", "anulada", "sustituida"]),
            "huella": ["type": "string", "pattern": "^[0-9A-F]{64}$", "description": "Its billing record's SHA-256 `Huella`."],
            "qr": ["type": "string", "description": "The AEAT's checking address (`ValidarQR`), the text of its QR code."],
        ], description: "An invoice: simplified (F2, one per payment or delivered online order) or full (F1 at payment, F3 replacing a simplified one)."),
        "Cobro": .obj([
            "cobro": .obj(["id": .integerID, "metodo": .oneOf(["efectivo", "tarjeta", "otro"]), "importe": .money, "propina": .money, "entregado": ["type": ["number", "null"], "minimum": 0, "description": "Euros with at most two decimals, computed from integer cents."], "cambio": ["type": ["number", "null"], "minimum": 0, "description": "Euros with at most two decimals, computed from integer cents."], "fecha": .time]),
            "factura": .ref("Factura"),
            "cuenta": .ref("Cuenta"),
        ], description: "A payment taken: its invoice and the check after it."),
        "Registros": .obj([
            "registros": .list(["type": "object", "additionalProperties": false, "properties": ["posicion": .integer(from: 1), "tipo": .oneOf(["alta", "anulacion"]), "IDEmisorFactura": .text, "NumSerieFactura": .text, "FechaExpedicionFactura": .text, "TipoFactura": .oneOf(["F1", "F2", "F3"]), "CuotaTotal": .text, "ImporteTotal": .text, "IDEmisorFacturaAnulada": .text, "NumSerieFacturaAnulada": .text, "FechaExpedicionFacturaAnulada": .text, "FechaHoraHusoGenRegistro": .text, "Huella": ["type": "string", "pattern": "^[0-9A-F]{64}$"], "anterior": ["type": ["object", "null"], "properties": ["IDEmisorFactura": .text, "NumSerieFactura": .text, "FechaExpedicionFactura": .text, "Huella": .text]], "envio": envioSchema], "required": ["posicion", "tipo", "FechaHoraHusoGenRegistro", "Huella", "anterior", "envio"]]),
        ], description: "VERI*FACTU billing records in chain order."),
        "InformeCaja": .obj([
            "desde": .text,
            "hasta": .text,
            "facturas": .integer(from: 0),
            "total": .money,
            "por_metodo": .list(.obj(["metodo": .text, "importe": .money, "propinas": .money])),
            "iva": .list(.obj(["iva": ["type": "integer"], "base": .money, "cuota": .money])),
            "anuladas": .integer(from: 0),
            "lineas_anuladas": .list(.obj(["nombre": .text, "cantidad": ["type": "integer"], "motivo": .text, "gerente": .textOrNull])),
            "propinas_por_camarero": .list(.obj(["id": .integerID, "nombre": .text, "propinas": .money])),
            "descuentos": .list(.obj(["nombre": .text, "cantidad": ["type": "integer"], "porcentaje": .integer(1, 100), "importe": .money,
                                      "motivo": .text, "gerente": .textOrNull])),
            "total_descuentos": .money,
            "efectivo_en_caja": .money,
            "pedidos": .integer(from: 0),
        ], description: "The cash of those days: invoices not voided by method and VAT rate, voided ones, voided lines, tips per waiter."),
    ]
}
