import Foundation
import Testing

/// The README and the guide as documents: plain sentences, every section of the old README at a home, and the
/// install steps the same wherever they are written.
@Suite("README and guide: sentences and homes")
struct READMEGuideTests {
    /// The longest sentence a user's page may hold, in words (issue 46: "no sentence over 40 words").
    static let maximumWords = 40

    /// One sentence of prose: where it starts and its words.
    struct Sentence: Equatable {
        var line: Int
        var words: Int
        var text: String
    }

    /// The sentences of a Markdown file's prose: outside fenced code, tables, headings and HTML comments. A code span
    /// counts as one word, a link as its text; a sentence ends at `.`, `!` or `?` before a space or the end of its
    /// paragraph; a list item is a paragraph of its own.
    static func sentences(_ lines: [String]) -> [Sentence] {
        var sentences: [Sentence] = []
        var paragraph: [(line: Int, text: String)] = []
        func flush() {
            defer { paragraph.removeAll() }
            var text = ""
            var starts: [(offset: Int, line: Int)] = []
            for (line, part) in paragraph {
                starts.append((text.count, line))
                text += part + " "
            }
            text = plain(text)
            var current = ""
            var currentStart = 0
            var characters = Array(text)
            characters.append(" ")
            for (offset, character) in characters.enumerated() {
                if current.isEmpty { currentStart = offset }
                current.append(character)
                let ends = ".!?".contains(character) && offset + 1 < characters.count && characters[offset + 1] == " "
                if ends || offset == characters.count - 1 {
                    let words = current.split(separator: " ").filter { $0.contains { $0.isLetter || $0.isNumber } }
                    if !words.isEmpty {
                        let line = starts.last { $0.offset <= currentStart }?.line ?? paragraph.first?.line ?? 0
                        sentences.append(
                            Sentence(
                                line: line, words: words.count,
                                text: current.trimmingCharacters(in: .whitespaces)))
                    }
                    current = ""
                }
            }
        }
        var inCode = false
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                flush()
                inCode.toggle()
                continue
            }
            if inCode { continue }
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("|") || trimmed.hasPrefix("<!--") {
                flush()
                continue
            }
            let item = listItem(trimmed)
            if item != nil { flush() }
            paragraph.append((index + 1, item ?? trimmed))
        }
        flush()
        return sentences
    }

    /// The text of a list item without its marker (`- `, `* `, `12. `), or nil for a line that starts none.
    static func listItem(_ line: String) -> String? {
        if line.hasPrefix("- ") || line.hasPrefix("* ") { return String(line.dropFirst(2)) }
        let digits = line.prefix { $0.isNumber }
        guard !digits.isEmpty, line.dropFirst(digits.count).hasPrefix(". ") else { return nil }
        return String(line.dropFirst(digits.count + 2))
    }

    /// `text` with each code span as one word (`X`) and each link as its text.
    static func plain(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "`", let close = text[text.index(after: index)...].firstIndex(of: "`") {
                result += "X"
                index = text.index(after: close)
            } else if character == "]", text[text.index(after: index)...].hasPrefix("("),
                let close = text[index...].firstIndex(of: ")")
            {
                index = text.index(after: close)
            } else {
                if character != "[" { result.append(character) }
                index = text.index(after: index)
            }
        }
        return result
    }

    @Test("the sentence counter splits at sentence ends, counts a code span as a word and skips code and tables")
    func counter() {
        let lines = [
            "One two three. Four `five six seven` [eight](nine.md)!", "", "```", "not. counted. at all", "```",
            "| a | table. |", "- an item", "  goes on. Here", "# A heading. Two",
        ]
        #expect(
            Self.sentences(lines) == [
                Sentence(line: 1, words: 3, text: "One two three."),
                Sentence(line: 1, words: 3, text: "Four X eight!"),
                Sentence(line: 7, words: 4, text: "an item goes on."),
                Sentence(line: 8, words: 1, text: "Here"),
            ])
    }

    @Test("no sentence of the README or the guide is longer than 40 words")
    func sentenceLength() throws {
        var longest = 0
        for file in try GuideFiles.all() {
            for sentence in Self.sentences(file.lines) {
                longest = max(longest, sentence.words)
                #expect(
                    sentence.words <= Self.maximumWords,
                    "\(file.path):\(sentence.line): \(sentence.words) words: \(sentence.text)")
            }
        }
        #expect(longest > 10)
    }

    /// One line of docs/.moved: an old README heading and a new home for it.
    struct Home {
        var line: Int
        var old: String
        var path: String
        var heading: String?
    }

    static func homes() throws -> [Home] {
        let text = try String(
            contentsOf: GuideFiles.root.appendingPathComponent("docs/.moved"), encoding: .utf8)
        return try text.components(separatedBy: "\n").enumerated().compactMap { index, line in
            guard line.hasPrefix("##") else { return nil }
            let parts = line.components(separatedBy: " → ")
            try #require(parts.count == 2, "docs/.moved:\(index + 1): no \" → \"")
            let target = parts[1]
            let space = target.firstIndex(of: " ")
            return Home(
                line: index + 1, old: parts[0], path: String(target[..<(space ?? target.endIndex)]),
                heading: space.map { String(target[target.index(after: $0)...]) })
        }
    }

    @Test("every section of the old README has a home, and every home holds its heading")
    func homesHold() throws {
        let homes = try Self.homes()
        #expect(homes.count >= 28)
        for home in homes {
            let url = GuideFiles.root.appendingPathComponent(home.path)
            let text = try? String(contentsOf: url, encoding: .utf8)
            guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                Issue.record("docs/.moved:\(home.line): \(home.path) does not exist or is empty")
                continue
            }
            if let heading = home.heading {
                #expect(
                    text.components(separatedBy: "\n").contains(heading),
                    "docs/.moved:\(home.line): \(home.path) has no heading \"\(heading)\" (the home of \(home.old))")
            }
        }
        // The old README's headings, as the commit before the split has them, when git can show it (not in an
        // archive without history).
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", GuideFiles.root.path, "show", "0cee47e:README.md"]
        let output = Pipe()
        git.standardOutput = output
        git.standardError = FileHandle.nullDevice
        do { try git.run() } catch { return }  // no git on this machine: the map is checked, not its completeness
        let old = output.fileHandleForReading.readDataToEndOfFile()
        git.waitUntilExit()
        guard git.terminationStatus == 0 else { return }
        let headings = Set(
            String(decoding: old, as: UTF8.self).components(separatedBy: "\n").filter { $0.hasPrefix("##") })
        #expect(headings.count == 26)
        #expect(Set(homes.map(\.old)) == headings, "docs/.moved must name every ## and ### heading of the old README")
    }

    /// The text of each fenced `sh` block of `lines` that holds `needle`.
    static func shellBlocks(_ lines: [String], holding needle: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in lines {
            if line == "```sh" {
                current = []
            } else if line == "```", let block = current {
                if block.contains(where: { $0.contains(needle) }) { blocks.append(block.joined(separator: "\n")) }
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("the install blocks .ci/readme-install runs from the README read the same in the systemd how-to")
    func installBlocksAgree() throws {
        let files = try GuideFiles.all()
        let readme = try #require(files.first { $0.path == "README.md" })
        let howTo = try #require(files.first { $0.path == "docs/how-to/systemd.md" })
        for needle in ["sudo install -m 755", "contrib/systemd/syncd.service"] {
            let written = Self.shellBlocks(readme.lines, holding: needle)
            #expect(written.count == 1, "README.md: one sh block holding \(needle)")
            #expect(
                Self.shellBlocks(howTo.lines, holding: needle) == written,
                "docs/how-to/systemd.md: its block holding \(needle) differs from the README's")
        }
    }
}
