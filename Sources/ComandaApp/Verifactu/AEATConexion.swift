import CCurl
import Foundation

/// One HTTPS `POST` to the AEAT's service with the taxpayer's certificate
/// (a PKCS#12 file and its password), by the system's libcurl over OpenSSL:
/// TLS, the client certificate and HTTP are theirs, none of it ours.
struct AEATConexion: Sendable {
    let url: String
    let certificado: String
    let clave: String
    /// A PEM file of the authorities trusted for the service (nil: the system's).
    let ca: String?
    /// Seconds for the whole exchange (connecting, sending, the answer).
    var timeout = 30

    /// What came back: an HTTP answer (any status), or why none did.
    enum Resultado: Sendable {
        case respuesta(status: Int, cuerpo: Data)
        case fallo(String)
    }

    /// The most of an answer that is read (a valid answer to 1,000 records is ~1 MiB).
    static let maximoRespuesta = 16 << 20

    /// libcurl's global state, made once before the first request (not thread-safe by itself).
    private static let iniciado: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Sends `cuerpo` (a SOAP 1.1 envelope) and waits for the answer, `timeout` at most.
    func post(_ cuerpo: Data) -> Resultado {
        guard Self.iniciado, let handle = curl_easy_init() else { return .fallo("libcurl no se pudo iniciar") }
        defer { curl_easy_cleanup(handle) }
        var headers: UnsafeMutablePointer<curl_slist>?
        for header in ["Content-Type: text/xml; charset=utf-8", "SOAPAction: \"\"", "Expect:"] {
            headers = curl_slist_append(headers, header)
        }
        defer { curl_slist_free_all(headers) }
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = cuerpo.withUnsafeBytes { body in
            errorBuffer.withUnsafeMutableBufferPointer { errors in
                url.withCString { url in
                    certificado.withCString { cert in
                        clave.withCString { password in
                            (ca ?? "").withCString { caPath in
                                var ok = true
                                func set(_ option: CURLoption, _ value: Int) { ok = ok && comanda_curl_setopt_long(handle, option, value) == CURLE_OK }
                                func set(_ option: CURLoption, _ value: UnsafeRawPointer?) {
                                    ok = ok && comanda_curl_setopt_pointer(handle, option, value) == CURLE_OK
                                }
                                set(CURLOPT_URL, url)
                                set(CURLOPT_ERRORBUFFER, UnsafeRawPointer(errors.baseAddress))
                                set(CURLOPT_NOSIGNAL, 1)
                                set(CURLOPT_POST, 1)
                                set(CURLOPT_POSTFIELDS, body.baseAddress)
                                ok = ok && comanda_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)) == CURLE_OK
                                set(CURLOPT_HTTPHEADER, UnsafeRawPointer(headers))
                                set(CURLOPT_TIMEOUT, timeout)
                                set(CURLOPT_CONNECTTIMEOUT, min(timeout, 15))
                                set(CURLOPT_PROTOCOLS_STR, "https")
                                set(CURLOPT_SSLCERT, cert)
                                set(CURLOPT_SSLCERTTYPE, "P12")
                                set(CURLOPT_KEYPASSWD, password)
                                if ca != nil { set(CURLOPT_CAINFO, caPath) }
                                set(CURLOPT_SSL_VERIFYPEER, 1)
                                set(CURLOPT_SSL_VERIFYHOST, 2)
                                ok = ok && comanda_curl_setopt_write(handle, { data, size, count, context in
                                    guard let data, let context else { return 0 }
                                    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
                                    let n = size * count
                                    guard sink.data.count + n <= AEATConexion.maximoRespuesta else { return 0 }
                                    sink.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: n)
                                    return n
                                }) == CURLE_OK
                                set(CURLOPT_WRITEDATA, UnsafeRawPointer(context))
                                guard ok else { return CURLE_FAILED_INIT }
                                return curl_easy_perform(handle)
                            }
                        }
                    }
                }
            }
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .fallo(Self.describe(code, detail: detail))
        }
        var status = 0
        _ = comanda_curl_response_code(handle, &status)
        return .respuesta(status: status, cuerpo: sink.data)
    }

    /// Why no answer came, in the manager's words (and libcurl's detail).
    static func describe(_ code: CURLcode, detail: String) -> String {
        let what: String
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: what = "no se encuentra el servidor de la AEAT (¿sin internet?)"
        case CURLE_COULDNT_CONNECT: what = "la AEAT no acepta la conexión"
        case CURLE_OPERATION_TIMEDOUT: what = "la AEAT no ha respondido a tiempo"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            what = "fallo de la conexión segura (TLS) con la AEAT"
        case CURLE_WRITE_ERROR: what = "la respuesta de la AEAT es demasiado grande"
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: what = "la conexión con la AEAT se cortó"
        default: what = "no se pudo enviar a la AEAT"
        }
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        return what + " (" + text.trimmingCharacters(in: .whitespacesAndNewlines) + ")"
    }

    /// Where an answer's bytes gather (one request, one thread).
    private final class Sink {
        var data = Data()
    }
}
