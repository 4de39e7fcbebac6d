import Foundation
import FrugalProbe

/// The commit a directory's git checkout is at, read from the repository's files (`HEAD`, the
/// branch's ref file, `packed-refs`) without starting `git`: starting `env` and `git` cost a
/// `frugal run` about 3 ms of CPU, a tenth of its fixed cost. Anything this does not read plainly
/// (`GIT_DIR` and friends, the reftable format, a symbolic ref to another symbolic ref, a name
/// that is not a full hash) is left to `git rev-parse HEAD`: nil here means "ask git".
enum GitHead {
    /// The commit of the checkout containing `directory`, or nil when it cannot be read plainly.
    static func commit(in directory: String, environment: [String: String]) -> String? {
        for variable in ["GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"]
        where environment[variable] != nil { return nil }
        guard let gitDirectory = gitDirectory(from: directory) else { return nil }
        let common = (try? FileReader.readText(gitDirectory + "/commondir"))
            .map { line -> String in
                let path = line.trimmingCharacters(in: .whitespacesAndNewlines)
                return path.hasPrefix("/") ? path : gitDirectory + "/" + path
            } ?? gitDirectory
        // The reftable format keeps refs in binary tables: git reads them.
        if FileManager.default.fileExists(atPath: common + "/reftable") { return nil }
        guard let head = try? FileReader.readText(gitDirectory + "/HEAD").trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        if isFullHash(head) { return head }
        guard head.hasPrefix("ref: refs/") else { return nil }
        let ref = String(head.dropFirst("ref: ".count))
        guard !ref.contains(".."), !ref.contains("\\") else { return nil }
        // A branch's ref is per worktree only under refs/bisect, refs/worktree, refs/rewritten; else common.
        for base in [gitDirectory, common] {
            if let value = try? FileReader.readText(base + "/" + ref).trimmingCharacters(in: .whitespacesAndNewlines) {
                return isFullHash(value) ? value : nil
            }
        }
        guard let packed = try? FileReader.readText(common + "/packed-refs") else { return nil }
        for line in packed.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("^") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[1] == ref, isFullHash(String(parts[0])) { return String(parts[0]) }
        }
        return nil
    }

    /// The `.git` directory of the checkout containing `directory`: a `.git` directory, or a
    /// `.git` file naming one (`gitdir: PATH`, a worktree or a submodule), searched upwards.
    static func gitDirectory(from directory: String) -> String? {
        var current = URL(fileURLWithPath: directory).standardizedFileURL.path
        while true {
            let candidate = current == "/" ? "/.git" : current + "/.git"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) {
                if isDirectory.boolValue { return candidate }
                guard let text = try? FileReader.readText(candidate), text.hasPrefix("gitdir: ") else { return nil }
                let path = text.dropFirst("gitdir: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
                return path.hasPrefix("/") ? path : current + "/" + path
            }
            if current == "/" { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
    }

    /// 40 (SHA-1) or 64 (SHA-256) lowercase hexadecimal digits.
    static func isFullHash(_ text: String) -> Bool {
        (text.utf8.count == 40 || text.utf8.count == 64) && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
