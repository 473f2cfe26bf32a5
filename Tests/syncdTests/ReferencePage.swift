import Foundation
import Testing

/// A page of `docs/reference/` whose generated parts are written by the tests: each part sits between
/// `<!-- generated: NAME … -->` and `<!-- end generated: NAME -->`, and the prose around the parts is a person's.
///
/// A test builds each part from what the code says of itself (the argument parser's `--experimental-dump-help`, a
/// live `/openapi.json`, `syncd --help`) and fails when the committed page differs, naming the command that rewrites
/// it: `SYNCD_UPDATE_REFERENCE=1 swift test --filter ReferencePages`.
struct ReferencePage {
    /// The page's path from the repository's root, `docs/reference/cli.md`.
    let path: String
    /// The page as committed.
    let text: String

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Whether the tests rewrite the pages instead of comparing them.
    static var updating: Bool { ProcessInfo.processInfo.environment["SYNCD_UPDATE_REFERENCE"] == "1" }

    static let regenerate = "SYNCD_UPDATE_REFERENCE=1 swift test --filter ReferencePages"

    init(_ path: String) throws {
        self.path = path
        text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    static func opening(_ name: String) -> String {
        "<!-- generated: \(name) (by Tests/syncdTests/ReferencePagesTests.swift; run \(regenerate)) -->"
    }

    static func closing(_ name: String) -> String { "<!-- end generated: \(name) -->" }

    /// The page with each named part's lines replaced by `parts[name]` (its markers kept); throws when a part's
    /// markers are missing, so a part cannot be dropped from a page by accident.
    func replacing(_ parts: [String: String]) throws -> String {
        var lines = text.components(separatedBy: "\n")
        for (name, content) in parts.sorted(by: { $0.key < $1.key }) {
            guard let start = lines.firstIndex(where: { $0.hasPrefix("<!-- generated: \(name) ") }),
                let end = lines[start...].firstIndex(of: Self.closing(name))
            else {
                throw PageError(
                    description: "\(path) has no part \"\(name)\": put \(Self.closing(name)) after a line "
                        + Self.opening(name))
            }
            var generated = content.components(separatedBy: "\n")
            while generated.last == "" { generated.removeLast() }
            lines.replaceSubrange(start...end, with: [Self.opening(name), ""] + generated + ["", Self.closing(name)])
        }
        return lines.joined(separator: "\n")
    }

    /// Compares the page with its parts regenerated, or writes it when ``updating``.
    func check(_ parts: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try replacing(parts)
        if Self.updating {
            if expected != text {
                try expected.write(to: Self.root.appendingPathComponent(path), atomically: true, encoding: .utf8)
            }
            return
        }
        guard expected != text else { return }
        // The line that differs, not the whole page: the page is hundreds of lines.
        let line = Self.firstDifference(expected, text)
        let (wanted, found) = (Self.line(line, of: expected), Self.line(line, of: text))
        Issue.record(
            Comment(
                rawValue: "\(path):\(line) differs from what the code says: expected \"\(wanted)\", found "
                    + "\"\(found)\". Rewrite the page with `\(Self.regenerate)`, check the diff, and commit it."),
            sourceLocation: sourceLocation)
    }

    static func line(_ number: Int, of text: String) -> String {
        let lines = text.components(separatedBy: "\n")
        return number <= lines.count ? lines[number - 1] : "(the end of the page)"
    }

    /// The 1-based line where two texts first differ.
    static func firstDifference(_ left: String, _ right: String) -> Int {
        let (a, b) = (left.components(separatedBy: "\n"), right.components(separatedBy: "\n"))
        let same = zip(a, b).prefix { $0 == $1 }.count
        return same + 1
    }

    /// The rows of the Markdown table under `heading` (a line of the page): each row's cells, trimmed, with the
    /// header and the `|---|` line left out.
    func table(after heading: String) throws -> [[String]] {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else {
            throw PageError(description: "\(path) has no line \"\(heading)\"")
        }
        let rows = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return rows.dropFirst(2).map { row in
            row.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
    }

    struct PageError: Error, CustomStringConvertible {
        var description: String
    }
}

/// Markdown for text the code wrote (help, summaries): backquoted spans as they are, and outside them the characters
/// Markdown would read as markup escaped.
enum MarkdownText {
    static func escaped(_ text: String) -> String {
        var result = ""
        var inCode = false
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character == "`" {
                inCode.toggle()
                result.append(character)
                continue
            }
            guard !inCode else {
                result.append(character)
                continue
            }
            switch character {
            case "_":
                // Inside a word, as in `SYNCD_LOG_LEVEL`, an underscore is no emphasis.
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + 1 < characters.count ? characters[index + 1] : " "
                let inWord = (before.isLetter || before.isNumber) && (after.isLetter || after.isNumber)
                result += inWord ? "_" : "\\_"
            case "*", "|", "\\": result += "\\\(character)"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A code span holding `text` (which may hold backquotes itself).
    static func code(_ text: String) -> String {
        text.contains("`") ? "`` \(text) ``" : "`\(text)`"
    }
}
