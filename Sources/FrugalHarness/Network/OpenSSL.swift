import CFrugalTLS
import COpenSSL

// The system's OpenSSL objects the run's CA and TLS server hold, each owned by one Swift object
// that frees it once. They are immutable after they are made, which is what OpenSSL allows to be
// shared between threads (openssl-threads(7): an EVP_PKEY, X509 or configured SSL_CTX may be read
// from many threads at once); hence `@unchecked Sendable`.

/// An OpenSSL call that failed, with what OpenSSL's error queue said about it.
struct OpenSSLError: Error, CustomStringConvertible, Sendable {
    /// The call that failed.
    var call: String
    /// OpenSSL's first packed error code (0 when the queue was empty).
    var code: UInt
    /// The queue's errors, as OpenSSL words them.
    var reason: String

    /// The error of `call`, draining this thread's OpenSSL error queue.
    static func drain(_ call: String) -> OpenSSLError {
        var text = [CChar](repeating: 0, count: 1024)
        let code = frugal_tls_drain_errors(&text, text.count)
        let reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return OpenSSLError(call: call, code: code, reason: reason.isEmpty ? "no OpenSSL error queued" : reason)
    }

    /// The TLS alert the peer sent, when the error is OpenSSL's report of one (libssl's
    /// reasons `SSL_AD_REASON_OFFSET + description`, e.g. 1048 for 'unknown CA').
    var peerAlert: UInt8? {
        guard frugal_err_library(code) == ERR_LIB_SSL else { return nil }
        let alert = Int(frugal_err_reason(code)) - Int(SSL_AD_REASON_OFFSET)
        return (0...255).contains(alert) ? UInt8(alert) : nil
    }

    var description: String { "\(call): \(reason)" }
}

/// An EC key pair (`EVP_PKEY`).
final class OpenSSLKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A new P-256 key.
    init() throws {
        guard let pointer = frugal_tls_new_key() else { throw OpenSSLError.drain("EVP_EC_gen(P-256)") }
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }
}

/// A certificate (`X509`).
final class OpenSSLCertificate: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { X509_free(pointer) }

    /// The certificate as PEM.
    func pem() throws -> String {
        try Self.writingToMemory("PEM_write_bio_X509") { PEM_write_bio_X509($0, pointer) == 1 }
    }

    /// SHA-256 of the certificate's DER.
    func sha256() throws -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(pointer, EVP_sha256(), &digest, &length) == 1 else { throw OpenSSLError.drain("X509_digest") }
        return Array(digest.prefix(Int(length)))
    }

    /// The subject, RFC 2253 style without escapes (`CN=...,O=...`).
    func subject() throws -> String {
        try Self.writingToMemory("X509_NAME_print_ex") {
            X509_NAME_print_ex($0, X509_get_subject_name(pointer), 0, frugal_xn_flag_readable()) >= 0
        }
    }

    /// What `write` puts in a memory BIO, as text.
    private static func writingToMemory(_ call: String, _ write: (OpaquePointer) -> Bool) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLError.drain("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) else { throw OpenSSLError.drain(call) }
        var data: UnsafeMutablePointer<CChar>?
        let length = frugal_bio_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }
}

/// A TLS server context (`SSL_CTX`) presenting one leaf certificate: every connection of a
/// tunnel to the leaf's host is made from it (``OpenSSLServerHandler``).
final class TLSServerContext: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A context presenting `leaf` with `key` (TLS 1.2 and 1.3, ALPN `http/1.1`).
    init(leaf: OpenSSLCertificate, key: OpenSSLKey) throws {
        guard let pointer = frugal_tls_server_context(leaf.pointer, key.pointer) else {
            throw OpenSSLError.drain("SSL_CTX_new")
        }
        self.pointer = pointer
    }

    deinit { SSL_CTX_free(pointer) }
}
