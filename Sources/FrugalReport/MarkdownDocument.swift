/// A Markdown document built from blocks of lines, each with a priority, rendered within a
/// character limit: essential blocks first, then important ones, then optional ones, each kept
/// whole or left out (with its one-line note), and always in document order.
struct MarkdownDocument {
    enum Priority: Int, Comparable {
        /// Kept whole while the limit allows; past it, cut line by line with a note.
        case essential
        case important
        case optional
        static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    struct Block {
        var priority: Priority
        var lines: [String]
        /// What stands in for the block when it is left out; nil to leave no trace.
        var omitted: String?
        var size: Int { lines.reduce(0) { $0 + Self.length($1) + 1 } }
        /// UTF-16 code units, as GitHub (JavaScript) counts a comment's length: at least the
        /// number of characters, so a bound on it bounds both.
        static func length(_ text: String) -> Int { text.utf16.count }
    }

    private(set) var blocks: [Block] = []

    mutating func add(_ priority: Priority, _ lines: [String], omitted: String? = nil) {
        blocks.append(Block(priority: priority, lines: lines, omitted: omitted))
    }

    /// At most `limit` UTF-16 code units (so at most `limit` characters).
    func render(limit: Int) -> String {
        // Room for the note that says what was left out.
        let budget = max(0, limit - 400)
        enum Fate { case kept, cut(lines: Int), noted, dropped }
        var fates = Array(repeating: Fate.dropped, count: blocks.count)
        var used = 0
        var full = false
        for priority in [Priority.essential, .important, .optional] {
            for (index, block) in blocks.enumerated() where block.priority == priority {
                let note = block.omitted.map { Block.length($0) + 2 } ?? 0
                if !full && used + block.size <= budget {
                    fates[index] = .kept
                    used += block.size
                } else if priority == .essential {
                    // The first essential block that does not fit keeps the lines that do; the
                    // essential blocks after it are left out, so nothing later jumps ahead.
                    guard !full else { continue }
                    full = true
                    var lines = 0
                    for line in block.lines {
                        let next = Block.length(line) + 1
                        guard used + next <= budget else { break }
                        used += next
                        lines += 1
                    }
                    fates[index] = .cut(lines: lines)
                } else if note > 0 && used + note <= budget {
                    fates[index] = .noted
                    used += note
                }
            }
        }
        var output: [String] = []
        var leftOut = 0
        for (index, block) in blocks.enumerated() {
            switch fates[index] {
            case .kept: output += block.lines
            case .cut(let lines):
                output += block.lines.prefix(lines)
                leftOut += block.lines.count - lines
            case .noted: output += [block.omitted ?? "", ""]
            case .dropped: if block.priority == .essential { leftOut += block.lines.count }
            }
        }
        if leftOut > 0 {
            output += ["", "… \(leftOut) more lines did not fit in a pull-request comment (\(limit) characters): see `report.html` or `report.json`."]
        }
        var text = output.joined(separator: "\n") + "\n"
        // The budget leaves room for the closing note; this guard keeps the bound regardless.
        while Block.length(text) > limit, let newline = text.dropLast().lastIndex(of: "\n") {
            text = String(text[...newline])
        }
        return text
    }
}
