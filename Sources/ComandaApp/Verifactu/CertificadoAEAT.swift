import COpenSSL
import Foundation

/// The certificate the records are sent with, read from its PKCS#12 file by
/// OpenSSL: who holds it (`titular`, and its NIF) and when it expires.
struct CertificadoAEAT: Sendable, Equatable {
    /// The subject's organisation (O), else its common name (CN).
    var titular: String
    /// From the subject's `serialNumber` or `organizationIdentifier`, without `IDCES-`/`VATES-`.
    var nif: String?
    /// Its notAfter, Unix seconds.
    var caduca: Int64

    /// Reads `path` with `clave`; a one-line reason (English, for the
    /// start-up's error) when it cannot be read, decrypted, or holds no
    /// certificate with its key.
    static func leer(_ path: String, clave: String) -> Result<CertificadoAEAT, ConfigurationError> {
        guard let bio = BIO_new_file(path, "rb") else {
            return .failure(ConfigurationError("invalid setting verifactu.certificado: cannot read \(path)"))
        }
        defer { BIO_free(bio) }
        guard let p12 = d2i_PKCS12_bio(bio, nil) else {
            ERR_clear_error()
            return .failure(ConfigurationError("invalid setting verifactu.certificado: \(path) is not a PKCS#12 file (.p12 or .pfx)"))
        }
        defer { PKCS12_free(p12) }
        guard PKCS12_verify_mac(p12, clave, Int32(clave.utf8.count)) == 1 else {
            ERR_clear_error()
            return .failure(ConfigurationError("invalid setting verifactu.clave: it is not the password of \(path)"))
        }
        var key: OpaquePointer?
        var cert: OpaquePointer?
        guard PKCS12_parse(p12, clave, &key, &cert, nil) == 1, let key, let cert else {
            ERR_clear_error()
            return .failure(ConfigurationError("invalid setting verifactu.certificado: \(path) cannot be opened with its password (an unsupported cipher?)"))
        }
        defer { EVP_PKEY_free(key); X509_free(cert) }
        guard X509_check_private_key(cert, key) == 1 else {
            ERR_clear_error()
            return .failure(ConfigurationError("invalid setting verifactu.certificado: \(path) holds a key that is not its certificate's"))
        }
        guard let subject = X509_get_subject_name(cert), let notAfter = X509_get0_notAfter(cert) else {
            return .failure(ConfigurationError("invalid setting verifactu.certificado: \(path) has no subject or no expiry"))
        }
        var tm = tm()
        guard ASN1_TIME_to_tm(notAfter, &tm) == 1 else {
            return .failure(ConfigurationError("invalid setting verifactu.certificado: \(path) has an unreadable expiry"))
        }
        let titular = entry(subject, NID_organizationName) ?? entry(subject, NID_commonName) ?? ""
        let nif = (entry(subject, NID_serialNumber) ?? entry(subject, NID_organizationIdentifier)).map(Self.nif)
        return .success(CertificadoAEAT(titular: titular, nif: nif, caduca: Int64(timegm(&tm))))
    }

    /// `IDCES-12345678Z`, `VATES-B12345674` → the NIF.
    static func nif(_ value: String) -> String {
        for prefix in ["IDCES-", "VATES-"] where value.hasPrefix(prefix) { return String(value.dropFirst(prefix.count)) }
        return value
    }

    /// The subject's first entry of `nid` as text.
    private static func entry(_ name: OpaquePointer, _ nid: Int32) -> String? {
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
        var out: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&out, data)
        guard length >= 0, let out else { return nil }
        defer { CRYPTO_free(out, nil, 0) }
        let text = String(decoding: UnsafeBufferPointer(start: out, count: Int(length)), as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
