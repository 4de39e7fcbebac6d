import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FrugalProbe

/// SHA-256 of a response body or a file, as `sha256:<hex>`: how a body the run served from held
/// bytes (a fixture, a HAR entry, an upstream answer) is matched against a file the app left, with
/// no body kept past its response (`DownloadMatcher`). OpenSSL's digest, the library the run's
/// TLS already links.
enum BodyDigest {
    static func sha256(_ bytes: [UInt8]) -> String? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil) == 1
        }
        guard done else { return nil }
        return "sha256:" + digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The digest of the file at `path` if it holds exactly `length` bytes (read whole: the
    /// matcher compares files up to `DownloadMatcher.largestCompared`).
    static func file(_ path: String, length: Int) -> String? {
        guard let file = try? PosixFile.open(path, O_RDONLY) else { return nil }
        defer { file.close() }
        guard let bytes = try? file.read(count: length + 1, at: 0), bytes.count == length else { return nil }
        return sha256(bytes)
    }
}
