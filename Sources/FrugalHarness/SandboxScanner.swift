import Foundation
import FrugalCore
import FrugalProbe

/// Finds the files that hold, byte for byte, the body of a response the run's origin served:
/// data downloaded verbatim, which the app can download again (the guide's re-creatable data).
/// Only files that backups copy are compared, and only with responses of the same length:
/// synthetic bodies rebuilt from their path, fixture, HAR and upstream bodies by their SHA-256.
enum DownloadMatcher {
    /// Bodies up to this size are rebuilt for the comparison (the origin's bodies are generated
    /// from their path, so a body is rebuilt, not kept, while it is served).
    static let largestCompared = 256 * 1_048_576

    static func markServed(_ files: [SandboxFileRecord], root: URL, requests: [WireRequest]) -> [SandboxFileRecord] {
        // Synthetic bodies are rebuilt from their path; bodies served from held bytes (fixture,
        // HAR, upstream) are matched by the digest the origin took as it served them.
        let served = requests.filter { $0.method == "GET" && (200..<300).contains($0.status)
            && ($0.source == .synthetic || $0.responseBodyDigest != nil)
            && $0.responseDecodedBodyBytes > 0 && $0.responseDecodedBodyBytes <= largestCompared }
        guard !served.isEmpty else { return files }
        let rootPath = root.standardizedFileURL.path
        return files.map { file in
            guard file.isBackedUp, file.bytes > 0 else { return file }
            var file = file
            // The file's digest, taken once, when a held body of its length was served.
            var fileDigest: String?
            var digested = false
            for request in served where request.responseDecodedBodyBytes == file.bytes {
                let path = rootPath + "/" + file.path
                if let digest = request.responseBodyDigest {
                    if !digested { (fileDigest, digested) = (BodyDigest.file(path, length: file.bytes), true) }
                    guard fileDigest == digest else { continue }
                } else {
                    guard let body = OriginContent.body(forPath: request.path), contents(path, equal: body) else { continue }
                }
                file.servedAs = "GET \(request.host ?? "")\(request.target)" + (request.source == .synthetic ? "" : " (\(request.source.rawValue))")
                break
            }
            return file
        }
    }

    /// Whether the file at `path` holds exactly `body`.
    static func contents(_ path: String, equal body: [UInt8]) -> Bool {
        guard let file = try? PosixFile.open(path, O_RDONLY) else { return false }
        defer { file.close() }
        return (try? file.read(count: body.count + 1, at: 0)) == body
    }
}

/// Lists the regular files of a sandbox with their sizes and exclusion from backup.
enum SandboxScanner {
    /// Every regular file under `root` (the bundle included), by path relative to it; nil if
    /// the root cannot be read.
    static func scan(root: URL) -> [SandboxFileRecord]? {
        let rootPath = root.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: rootPath) else { return nil }
        let sidecar = (try? FileReader.readText(rootPath + "/" + BackupExclusion.sidecarPath)).map(BackupExclusion.parseSidecar) ?? []
        var files: [SandboxFileRecord] = []
        while let relative = enumerator.nextObject() as? String {
            let path = rootPath + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            var exclusion: BackupExclusionMechanism?
            if (try? ExtendedAttributes.get(BackupExclusion.attributeName, path: path)) ?? nil != nil {
                exclusion = .extendedAttribute
            } else if sidecar.contains(relative) {
                exclusion = .sidecar
            }
            files.append(SandboxFileRecord(path: relative, bytes: Int(info.st_size), exclusion: exclusion))
        }
        return files.sorted { $0.path < $1.path }
    }
}
