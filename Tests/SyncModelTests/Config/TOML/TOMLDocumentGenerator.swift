@testable import SyncCore
@testable import SyncSupport

/// Seeded TOML documents for the oracle: built from TOML's grammar (headers, dotted keys, every kind of value, nested
/// arrays and inline tables), and half of them then mutated by inserting, deleting or replacing a piece of syntax, so
/// that both the values and the refusals are compared.
struct TOMLDocumentGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func document() -> String {
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: lines.append("[" + key() + "]")
            case 1: lines.append("[[" + key() + "]]")
            case 2: lines.append("# " + pick(["comment", "a = 1", "é", "[x]"]))
            case 3: lines.append("")
            default: lines.append(key() + pick([" = ", "=", " =\t"]) + value(depth: 0))
            }
        }
        var text = lines.joined(separator: pick(["\n", "\n", "\r\n"]))
        if Bool.random(using: &random) { text += "\n" }
        return Bool.random(using: &random) ? mutate(text) : text
    }

    private mutating func key() -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in
            pick(["a", "b", "c", "\"a\"", "'b'", "\"\"", "\"é\"", "1", "-", "_x", "true", "\"a.b\"", "\"\\u0061\""])
        }.joined(separator: pick([".", ".", " . "]))
    }

    private mutating func value(depth: Int) -> String {
        let scalars = [
            "1", "-0", "+17", "1_000", "0xBEEF", "0o17", "0b101", "9223372036854775807", "3.5", "-2e-3", "1E6",
            "6.02_2e23", "inf", "-nan", "true", "false", "\"text\"", "\"esc \\t \\\" \\u00e9\"", "'lit\\eral'",
            "\"\"\"\nmulti\nline\"\"\"", "'''\nraw ''lines'''", "\"\"\"a \\\n   b\"\"\"", "1979-05-27", "07:32:00.5",
            "1979-05-27T07:32:00Z", "1979-05-27 07:32:00+01:30", "2000-02-29T00:00:00",
        ]
        guard depth < 3 else { return pick(scalars) }
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            let elements = (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth + 1) }
            return "[" + elements.joined(separator: pick([", ", ",", ",\n  "])) + pick(["]", ",]", "\n]"])
        case 1:
            let pairs = (0..<Int.random(in: 0...3, using: &random)).map { _ in key() + " = " + value(depth: depth + 1) }
            return "{ " + pairs.joined(separator: ", ") + " }"
        default:
            return pick(scalars)
        }
    }

    private mutating func mutate(_ text: String) -> String {
        var bytes = Array(text.utf8)
        let pieces = [
            "[", "]", "{", "}", ",", "=", ".", "\"", "'", "\"\"\"", "'''", "\\", "\n", "\r\n", "\r", "#", " ", "\t",
            "_",
            "0", "1", "e", "x", "+", "-", ":", "T", "Z", "\u{7}", "\u{7F}", "é", "\\u00", "inf", "nan", "[[", "]]",
        ]
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            let at = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                bytes.insert(contentsOf: Array(pick(pieces).utf8), at: at)
            case 1:
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...3, using: &random)))
            default:
                bytes.replaceSubrange(at..<min(bytes.count, at + 1), with: Array(pick(pieces).utf8))
            }
        }
        // Mutations may cut a multi-byte character: such bytes are not a document either reader is given.
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func pick(_ choices: [String]) -> String {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }
}
