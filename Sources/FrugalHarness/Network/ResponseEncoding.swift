import CZlib
import Foundation
import FrugalCore

/// A real server's manners for the origin: `Accept-Encoding` (gzip, deflate) honoured on
/// compressible media types, and `If-None-Match` answered 304 when the response declares an
/// `ETag`.
///
/// zlib is reached through the `CZlib` system-library target the origin already links for its
/// deflate measure, rather than swift-nio-extras' `HTTPResponseCompressor`: that handler
/// compresses the response stream part by part with chunked transfer coding and reports no byte
/// counts, while the origin needs the whole encoded size up front (a `content-length`, as most
/// API servers send for JSON) and the counts before and after encoding for each request; it
/// would also add NIOExtras and its own zlib shim to every build for a few zlib calls.
public enum ResponseEncoding {
    /// A content coding the origin can produce.
    public enum Coding: String, Sendable {
        case gzip, deflate
    }

    /// Bodies shorter than this go uncompressed, as nginx's `gzip_min_length` (20) would not
    /// bother with; a few bytes of gzip framing would make them larger.
    public static let minimumLength = 20
    /// Synthetic bodies longer than this stream uncompressed (compressing means holding them in memory).
    public static let maximumSyntheticLength = 16 << 20

    /// The coding to use for a client's `Accept-Encoding` (RFC 9110 §12.5.3): the first of gzip,
    /// deflate it accepts with a non-zero q (`*` counts), nil for identity.
    public static func negotiate(_ acceptEncoding: String?) -> Coding? {
        guard let acceptEncoding else { return nil }
        var accepted: [String: Double] = [:]
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first, !name.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 1
            }
            accepted[name] = q
        }
        for coding in [Coding.gzip, .deflate] {
            if let q = accepted[coding.rawValue] ?? (coding == .gzip ? accepted["x-gzip"] : nil) ?? accepted["*"], q > 0 { return coding }
        }
        return nil
    }

    /// Whether a media type is worth compressing: text, JSON, XML, JavaScript, SVG.
    public static func isCompressible(contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return type.hasPrefix("text/") || type.hasSuffix("+json") || type.hasSuffix("+xml")
            || ["application/json", "application/xml", "application/javascript", "image/svg+xml", "application/x-ndjson"].contains(type)
    }

    /// `bytes` encoded with `coding` at zlib's default level: gzip (RFC 1952) or, for `deflate`,
    /// the zlib format (RFC 1950) HTTP's `deflate` names. Nil if zlib failed.
    public static func encode(_ bytes: [UInt8], as coding: Coding) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for a gzip wrapper; 15 alone for the zlib wrapper.
        let windowBits: Int32 = coding == .gzip ? 15 + 16 : 15
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// `bytes` decoded from gzip or zlib format (for tests and for checking what the client got). Nil if not valid.
    public static func decode(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 + 32: zlib detects gzip or zlib wrapping by itself.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            repeat {
                let produced: Int = scratch.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                output += scratch[0..<produced]
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
        }
        return status == Z_STREAM_END ? output : nil
    }

    /// Whether a request's `If-None-Match` matches the response's `ETag` (weak comparison, RFC
    /// 9110 §13.1.2, as GET uses): the client's copy is current and the answer is 304.
    public static func notModified(ifNoneMatch: String?, etag: String?) -> Bool {
        guard let ifNoneMatch, let etag else { return false }
        func opaque(_ tag: String) -> String {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
        }
        if ifNoneMatch.trimmingCharacters(in: .whitespaces) == "*" { return true }
        let mine = opaque(etag)
        return ifNoneMatch.split(separator: ",").contains { opaque(String($0)) == mine }
    }
}
