import CYaml
import Foundation
import FrugalCore

/// The limits every YAML or JSON config passes before Yams composes it (docs/robustness.md, "Limits on input").
/// Yams shares an aliased node rather than copying it, but anything that walks the tree (its own
/// duplicate-key check hashes every mapping key; a loader reading scenarios) walks the expansion:
/// a 600-byte file with nested anchors used as a mapping key held a core for minutes. So the
/// file is first read as libyaml events, which cost time linear in its size, and the size of
/// every node once its aliases are expanded is counted before anything is built.
public enum ConfigLimits {
    /// The largest config file read: 1 MiB (frugal.yml files are a few kilobytes).
    public static let maxBytes = 1 << 20
    /// The most nodes (scalars, sequences, mappings) the document may hold with every alias expanded.
    public static let maxExpandedNodes = 100_000
    /// The deepest nesting of sequences and mappings (Yams composes recursively).
    public static let maxDepth = 64
}

enum BoundedYAML {
    /// Reads `path` as UTF-8 text no larger than `ConfigLimits.maxBytes`.
    static func read(path: String) throws -> String {
        // Opened without blocking and looked at before reading: a FIFO named as the config (or
        // found as ./frugal.yml) once held `frugal run` and `frugal list` forever in open(2).
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConfigError(file: path, line: nil, problem: "cannot read the file (\(String(cString: strerror(errno))))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw ConfigError(file: path, line: nil, problem: "cannot read the file (\(String(cString: strerror(code))))")
        }
        if let kind = FileKind.nonRegular(mode: info.st_mode) {
            close(descriptor)
            throw ConfigError(file: path, line: nil, problem: "it is \(kind), not a regular file")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        defer { try? handle.close() }
        let data: Data
        do {
            // One byte past the limit tells a file at the limit from a larger one without reading it all.
            data = try handle.read(upToCount: ConfigLimits.maxBytes + 1) ?? Data()
        } catch {
            throw ConfigError(file: path, line: nil, problem: "cannot read the file (\(ErrorText.reason(error)))")
        }
        guard data.count <= ConfigLimits.maxBytes else {
            throw ConfigError(file: path, line: nil, problem: "the file is larger than \(ConfigLimits.maxBytes / 1024) KiB, the limit for a config")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: nil, problem: "the file is not UTF-8 text")
        }
        return text
    }

    /// Checks `text` against the limits (`YAMLText.compose` calls it before Yams composes).
    static func check(_ text: String, file: String) throws {
        guard text.utf8.count <= ConfigLimits.maxBytes else {
            throw ConfigError(file: file, line: nil, problem: "the text is larger than \(ConfigLimits.maxBytes / 1024) KiB, the limit for a config")
        }
        try checkExpansion(text, file: file)
    }

    /// Walks libyaml's events, counting each node's size with its aliases expanded; throws at the
    /// first node past a limit. Syntax errors are left to Yams, which reports them with their place.
    static func checkExpansion(_ text: String, file: String) throws {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw ConfigError(file: file, line: nil, problem: "cannot start the YAML parser") }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            // Expanded sizes of the anchors seen so far, and of the collections still open.
            var anchors: [String: Int] = [:]
            var open: [(anchor: String?, size: Int)] = []
            var total = 0
            func add(_ size: Int, anchor: String?, line: Int) throws {
                if let anchor { anchors[anchor] = size }
                if open.isEmpty { total += size } else { open[open.count - 1].size += size }
                guard total <= ConfigLimits.maxExpandedNodes, (open.last?.size ?? 0) <= ConfigLimits.maxExpandedNodes else {
                    throw ConfigError(file: file, line: line, problem: "the document expands to more than \(ConfigLimits.maxExpandedNodes) nodes through its aliases (the limit for a config)")
                }
            }
            func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
                pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return
                case YAML_SCALAR_EVENT:
                    try add(1, anchor: name(event.data.scalar.anchor), line: line)
                case YAML_ALIAS_EVENT:
                    // An undefined alias is Yams's error to report; count it as one node.
                    try add(name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1, anchor: nil, line: line)
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    guard open.count < ConfigLimits.maxDepth else {
                        throw ConfigError(file: file, line: line, problem: "collections nest deeper than \(ConfigLimits.maxDepth) levels (the limit for a config)")
                    }
                    let anchor = event.type == YAML_SEQUENCE_START_EVENT ? name(event.data.sequence_start.anchor) : name(event.data.mapping_start.anchor)
                    open.append((anchor, 1))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = open.popLast() else { return }
                    try add(closed.size, anchor: closed.anchor, line: line)
                default:
                    continue
                }
            }
        }
    }
}
