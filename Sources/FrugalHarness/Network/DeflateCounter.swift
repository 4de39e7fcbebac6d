import CZlib
import NIOCore

/// Counts how many bytes a body deflates to, streaming, without keeping either the input or
/// the output: raw deflate (no zlib or gzip header) at zlib's default level 6, the format HTTP's
/// `Content-Encoding: deflate`/gzip bodies carry. Used by the origin server for
/// `network.compact-transfers` (payload bytes ÷ deflated bytes).
final class DeflateCounter {
    private var stream = z_stream()
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var valid = false
    /// Bytes fed in so far.
    private(set) var inputBytes = 0
    /// Compressed bytes produced so far.
    private(set) var outputBytes = 0

    init() {
        // windowBits -15: raw deflate with the full 32 KiB window; memLevel 8 is zlib's default.
        valid = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                              ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit {
        if valid { deflateEnd(&stream) }
    }

    /// Feeds the readable bytes of `buffer` (not consuming them).
    func feed(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { feed($0) }
    }

    /// Feeds raw bytes.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard valid, let base = bytes.baseAddress, bytes.count > 0 else { return }
        inputBytes += bytes.count
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(bytes.count)
        run(flush: Z_NO_FLUSH)
    }

    /// Ends the stream and returns the compressed size (nil if zlib could not be set up).
    func finish() -> Int? {
        guard valid else { return nil }
        stream.next_in = nil
        stream.avail_in = 0
        run(flush: Z_FINISH)
        deflateEnd(&stream)
        valid = false
        return outputBytes
    }

    private func run(flush: Int32) {
        scratch.withUnsafeMutableBufferPointer { out in
            repeat {
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = deflate(&stream, flush)
                outputBytes += out.count - Int(stream.avail_out)
                if status == Z_STREAM_END || status == Z_STREAM_ERROR { break }
                // More output is pending while zlib filled the whole scratch buffer.
            } while stream.avail_out == 0 || (flush == Z_FINISH && stream.avail_in > 0)
        }
    }
}
