import Foundation
import FrugalCore
import Yams

/// `frugal.yml`'s `server:` (an app's or a scenario's) and the files `resources:` and
/// `documents:` install: paths resolved against the file's directory, each checked up front.
extension ProjectConfigReader {
    /// The `server:` of each scenario that has one (the scenarios were checked already).
    func scenarioServers(_ node: Node) throws -> [String: ServerSettings] {
        var result: [String: ServerSettings] = [:]
        guard let mapping = node.mapping else { return result }
        for (keyNode, valueNode) in mapping {
            guard let name = keyNode.scalar?.string, let server = YAMLText.value(valueNode, "server") else { continue }
            result[name] = try self.server(server, label: "scenario '\(name)'")
        }
        return result
    }

    /// A `server:` mapping: `fixtures` (a directory), `har` (a HAR 1.2 file), `timing`
    /// (`recorded` or milliseconds). Paths are resolved against the file's directory and checked.
    func server(_ node: Node, label: String) throws -> ServerSettings {
        guard let mapping = node.mapping else {
            throw error(node, "\(label): 'server' must be a mapping with fixtures, har and/or timing")
        }
        var settings = ServerSettings()
        for (keyNode, valueNode) in mapping {
            let key = keyNode.scalar?.string ?? ""
            switch key {
            case "fixtures":
                let path = try string(valueNode, "'fixtures'")
                let url = resolve(path).standardizedFileURL
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw error(valueNode, "\(label): fixtures '\(path)' is not a directory (looked at \(url.path))")
                }
                settings.fixtures = url.path
            case "har":
                let path = try string(valueNode, "'har'")
                let url = resolve(path).standardizedFileURL
                if let problem = Self.harProblem(url.path) { throw error(valueNode, "\(label): har '\(path)' \(problem)") }
                settings.har = url.path
            case "timing":
                let text = try string(valueNode, "'timing'")
                guard let timing = ServerSettings.Timing.parse(text) else {
                    throw error(valueNode, "\(label): timing '\(text)' is not 'recorded' or a number of milliseconds such as 40ms")
                }
                settings.timing = timing
            default:
                throw error(keyNode, "\(label): server: unknown key '\(key)'; expected fixtures, har or timing")
            }
        }
        guard settings.fixtures != nil || settings.har != nil else {
            throw error(node, "\(label): 'server' needs fixtures or har")
        }
        return settings
    }

    /// Why `path` is not a HAR file (missing, not JSON, no `log.entries` list), nil when it looks like one.
    static func harProblem(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return "does not exist (looked at \(path))" }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return "is not JSON (a HAR file is a JSON object)" }
        guard let log = object["log"] as? [String: Any], let entries = log["entries"] as? [Any] else {
            return "is not a HAR file: it has no log.entries list"
        }
        for (index, entry) in entries.enumerated() {
            guard let entry = entry as? [String: Any], let request = entry["request"] as? [String: Any],
                  request["method"] is String, request["url"] is String,
                  let response = entry["response"] as? [String: Any], response["status"] is Int else {
                return "is not a HAR file: log.entries[\(index)] lacks request.method, request.url or response.status"
            }
        }
        return nil
    }

    func resolve(_ path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
    }

    /// Every file under the folder (or the one file) `node` names, as resources to copy.
    func files(_ node: Node, label: String, what: String) throws -> [BundleResource] {
        let path = try string(node, "'\(what)'")
        let root = resolve(path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
            throw error(node, "\(label): \(what) '\(path)' does not exist (looked at \(root.path))")
        }
        // Inside the project, symbolic links resolved: `documents: /` once walked the whole file
        // system into every run's sandbox and filled the disk.
        let project = directory.resolvingSymlinksInPath().standardizedFileURL.path
        let real = root.resolvingSymlinksInPath().standardizedFileURL.path
        guard real == project || real.hasPrefix(project == "/" ? "/" : project + "/"), real != "/" else {
            throw error(node, "\(label): \(what) '\(path)' is outside the project (\(project)); name a folder inside it")
        }
        func size(_ url: URL) -> Int { ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0 }
        guard isDirectory.boolValue else { return [.file(root.path, as: root.lastPathComponent, bytes: size(root))] }
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw error(node, "\(label): cannot list \(what) '\(path)'")
        }
        var result: [BundleResource] = []
        var total = 0
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let full = url.standardizedFileURL.path
            let relative = String(full.dropFirst(root.path.count + 1))
            let bytes = size(url)
            total += bytes
            result.append(.file(full, as: relative, bytes: bytes))
            // Every run copies these into its sandbox: bounded like everything a config names.
            guard result.count <= Self.maximumInstalledFiles, total <= Self.maximumInstalledBytes else {
                throw error(node, "\(label): \(what) '\(path)' holds more than \(Self.maximumInstalledFiles) files or \(Self.maximumInstalledBytes >> 20) MiB; every run copies them into its sandbox")
            }
        }
        return result.sorted { $0.path < $1.path }
    }

    /// The most files, and bytes, `resources` or `documents` may install into each run's sandbox.
    static let maximumInstalledFiles = 10_000
    static let maximumInstalledBytes = 1 << 30
}
