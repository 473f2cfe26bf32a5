import Foundation

/// Compares what a command printed with what docs/tutorial.md shows, as a reader would: equal line for line, except
/// for what differs on every run. Those parts are recognised by their shape in the page's line:
///
/// - a time (`2026-12-07T22:00:32Z`, with or without milliseconds) or an HTTP date (`Mon, 07 Dec 2026 22:00:27 GMT`);
/// - the seconds of `max-age=`, `Age: ` and `ttl=`, which count down to the daemon's next poll;
/// - an ETag's first part (`"c43aa7a3522687af.1"`), which a new database draws at random; its version must match;
/// - a loopback port (`127.0.0.1:8787`): the test's servers listen on ports the system picks.
///
/// The ETags and ports found are returned, so that the page's later commands are run with the reader's own.
enum TutorialOutput {
    /// What a page line's variable parts were in the actual line.
    enum Capture: Hashable {
        /// The page's ETag first part, and the one printed.
        case etag(page: String, actual: String)
        /// The page's port, and the one printed.
        case port(page: String, actual: String)
    }

    /// A line of the page as a pattern over printed lines.
    struct LinePattern {
        var expected: String
        var regex: NSRegularExpression
        /// For each capture group of `regex` in order: the page's ETag or port it stands for.
        var groups: [(isETag: Bool, page: String)]

        /// The captures when `line` matches, nil otherwise.
        func match(_ line: String) -> [Capture]? {
            let range = NSRange(line.startIndex..., in: line)
            guard let found = regex.firstMatch(in: line, range: range) else { return nil }
            return groups.enumerated().compactMap { offset, group in
                guard let captured = Range(found.range(at: offset + 1), in: line) else { return nil }
                let actual = String(line[captured])
                return group.isETag ? .etag(page: group.page, actual: actual) : .port(page: group.page, actual: actual)
            }
        }
    }

    /// The shapes that vary, one alternative each: 1 a time, 2 an HTTP date, 3 and 4 an ETag's parts, 5 a loopback
    /// port, 6 and 7 a countdown's label and number.
    private static let variable: NSRegularExpression = {
        let pattern =
            #"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)"#
            + #"|([A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT)"#
            + #"|"([0-9a-f]{16})\.(\d+)""#
            + #"|127\.0\.0\.1:(\d+)"#
            + #"|(max-age=|Age: |ttl=)(\d+)"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { preconditionFailure("a valid pattern") }
        return regex
    }()

    static func pattern(_ expected: String) -> LinePattern {
        var regex = "^"
        var groups: [(isETag: Bool, page: String)] = []
        var position = expected.startIndex
        let whole = NSRange(expected.startIndex..., in: expected)
        for found in variable.matches(in: expected, range: whole) {
            guard let range = Range(found.range, in: expected) else { continue }
            regex += NSRegularExpression.escapedPattern(for: String(expected[position..<range.lowerBound]))
            func group(_ index: Int) -> String? {
                Range(found.range(at: index), in: expected).map { String(expected[$0]) }
            }
            if group(1) != nil {
                regex += #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z"#
            } else if group(2) != nil {
                regex += #"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT"#
            } else if let hash = group(3), let version = group(4) {
                regex += #""([0-9a-f]{8,})\."# + version + "\""
                groups.append((true, hash))
            } else if let port = group(5) {
                regex += #"127\.0\.0\.1:(\d+)"#
                groups.append((false, port))
            } else if let label = group(6) {
                regex += NSRegularExpression.escapedPattern(for: label) + #"-?\d+"#
            }
            position = range.upperBound
        }
        regex += NSRegularExpression.escapedPattern(for: String(expected[position...])) + "$"
        guard let compiled = try? NSRegularExpression(pattern: regex) else {
            preconditionFailure("an escaped line makes a valid pattern: \(regex)")
        }
        return LinePattern(expected: expected, regex: compiled, groups: groups)
    }

    /// Printed text as lines a reader sees: a terminal's carriage returns and escape sequences (curl's bold header
    /// names, syncd's erased progress line) taken out, and the blank lines at the end dropped.
    static func lines(_ printed: String) -> [String] {
        var text = printed.replacingOccurrences(of: "\r", with: "")
        text = text.replacingOccurrences(of: #"\x{1B}\[[0-9;?]*[A-Za-z]"#, with: "", options: .regularExpression)
        var lines = text.components(separatedBy: "\n")
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The captures when every printed line matches the page's line in its place; otherwise a message that shows the
    /// first line that differs.
    static func compare(_ printed: [String], with output: TutorialPage.Output) -> Result<[Capture], Mismatch> {
        var expected = output.lines
        while expected.last?.isEmpty == true { expected.removeLast() }
        var captures: [Capture] = []
        for index in 0..<max(printed.count, expected.count) {
            guard index < printed.count, index < expected.count else {
                return .failure(
                    Mismatch(
                        description: "docs/tutorial.md:\(output.line + index): the page shows \(expected.count) "
                            + "lines, the command printed \(printed.count):\n" + printed.joined(separator: "\n")))
            }
            guard let found = pattern(expected[index]).match(printed[index]) else {
                return .failure(
                    Mismatch(
                        description: "docs/tutorial.md:\(output.line + index): the page shows\n  \(expected[index])\n"
                            + "the command printed\n  \(printed[index])"))
            }
            captures += found
        }
        return .success(captures)
    }

    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }
}
