import Foundation

/// docs/tutorial.md read as the steps a reader takes, in order: the commands of each `sh` block with the output the
/// page shows after it (a `text` block right below), the files of the `toml` blocks (`title="NAME"` names the file),
/// and the page's instructions to the terminals that keep a program running.
///
/// An HTML comment, invisible on the rendered page, tells the test what the prose tells the reader:
/// `<!-- tutorial-test: terminal N keeps running -->` before an `sh` block of one command that runs until Ctrl-C, and
/// `<!-- tutorial-test: Ctrl-C in terminal N -->` where the page asks the reader to stop it. Any other fence, a
/// `text` block that follows no command, or a `toml` block without a file name is an error: nothing on the page goes
/// unchecked.
struct TutorialPage {
    /// What the page shows a command printing: its lines, and where the block starts (1-based) for messages.
    struct Output: Sendable {
        var line: Int
        var lines: [String]
    }

    enum Step: Sendable {
        /// An `sh` block, run to its end in the folder the reader is in.
        case commands(line: Int, text: String, output: Output?)
        /// An `sh` block whose one command keeps running in terminal `terminal` until the page stops it.
        case keepsRunning(line: Int, terminal: Int, command: String, output: Output?)
        /// A `toml` block the reader saves as `name`.
        case file(line: Int, name: String, text: String)
        /// The reader presses Ctrl-C in terminal `terminal`.
        case interrupt(line: Int, terminal: Int)
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    var steps: [Step]

    static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/tutorial.md")
    }

    static func load() throws -> TutorialPage {
        try parse(try String(contentsOf: url, encoding: .utf8))
    }

    static func parse(_ text: String) throws -> TutorialPage {
        let lines = text.components(separatedBy: "\n")
        var steps: [Step] = []
        var marker: (line: Int, text: String)?
        var index = 0
        func fail(_ line: Int, _ message: String) -> ParseError {
            ParseError(description: "docs/tutorial.md:\(line): \(message)")
        }
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("<!-- tutorial-test: "), line.hasSuffix(" -->") {
                let text = String(line.dropFirst("<!-- tutorial-test: ".count).dropLast(" -->".count))
                if let terminal = Self.terminal(in: text, pattern: "Ctrl-C in terminal ", suffix: "") {
                    steps.append(.interrupt(line: index + 1, terminal: terminal))
                } else if Self.terminal(in: text, pattern: "terminal ", suffix: " keeps running") != nil {
                    marker = (index + 1, text)
                } else {
                    throw fail(index + 1, "unknown tutorial-test comment \"\(text)\"")
                }
                index += 1
                continue
            }
            guard line.hasPrefix("```") else {
                index += 1
                continue
            }
            let info = String(line.dropFirst(3))
            let start = index + 1
            var end = start
            while end < lines.count, lines[end] != "```" { end += 1 }
            guard end < lines.count else { throw fail(start, "a fence that is never closed") }
            let body = Array(lines[start..<end])
            index = end + 1
            switch info {
            case "sh":
                let output = try Self.output(after: &index, in: lines)
                if let (markerLine, text) = marker {
                    let terminal = Self.terminal(in: text, pattern: "terminal ", suffix: " keeps running") ?? 0
                    guard body.count == 1 else {
                        throw fail(markerLine, "a block that keeps running holds exactly one command")
                    }
                    steps.append(.keepsRunning(line: start, terminal: terminal, command: body[0], output: output))
                    marker = nil
                } else {
                    steps.append(.commands(line: start, text: body.joined(separator: "\n"), output: output))
                }
            case let info where info.hasPrefix("toml title=\"") && info.hasSuffix("\""):
                let name = String(info.dropFirst("toml title=\"".count).dropLast())
                steps.append(.file(line: start, name: name, text: body.joined(separator: "\n") + "\n"))
            case "text":
                throw fail(start, "a text block that follows no sh block")
            default:
                throw fail(start, "a \"\(info)\" block: the test runs sh, writes toml title=\"…\" and compares text")
            }
            if let (markerLine, _) = marker, info != "sh" {
                throw fail(markerLine, "\"keeps running\" stands right before an sh block")
            }
        }
        return TutorialPage(steps: steps)
    }

    /// The `text` block right after the current position (blank lines before it allowed), consumed; nil when the
    /// next thing is not one.
    private static func output(after index: inout Int, in lines: [String]) throws -> Output? {
        var next = index
        while next < lines.count, lines[next].isEmpty { next += 1 }
        guard next < lines.count, lines[next] == "```text" else { return nil }
        var end = next + 1
        while end < lines.count, lines[end] != "```" { end += 1 }
        guard end < lines.count else {
            throw ParseError(description: "docs/tutorial.md:\(next + 1): a fence that is never closed")
        }
        index = end + 1
        return Output(line: next + 2, lines: Array(lines[(next + 1)..<end]))
    }

    /// N in `<pattern>N<suffix>`.
    private static func terminal(in text: String, pattern: String, suffix: String) -> Int? {
        guard text.hasPrefix(pattern), text.hasSuffix(suffix) else { return nil }
        return Int(text.dropFirst(pattern.count).dropLast(suffix.count))
    }
}
