/// Control characters written as escapes, so that text from outside neither splits a log line nor drives a terminal
/// (moves the cursor, recolours, retitles the window, fakes a prompt). One scan for the daemon's log lines and for the
/// commands' terminal output; only the spelling of the escapes differs.
package enum ControlCharacters {
    /// How escapes are spelt.
    package enum Style: Sendable {
        /// Log lines: `\n`, `\r`, and `\xHH` for the rest of C0, DEL and C1; a tab stays.
        case log
        /// Terminal output: `\u001b` for every C0 character (tab and line breaks too), DEL and C1.
        case terminal
        /// Code and names printed for a person to read and paste (`syncd infer`'s stanza, models and summary): as
        /// ``terminal``, and the bidirectional embedding, override and isolate controls too (U+202A–U+202E,
        /// U+2066–U+2069), which would show the text around them in another order than it is read (Trojan Source).
        case code
    }

    /// `text` with its control characters escaped in `style`; the text itself when it has none.
    package static func escaped(_ text: String, _ style: Style) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, style) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, style) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            switch (style, scalar) {
            case (.log, "\n"): result += "\\n"
            case (.log, "\r"): result += "\\r"
            case (.log, _): result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            case (.terminal, _), (.code, _): result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }

    /// `text` escaped as ``escaped(_:_:)`` does, cut to at most `limit` scalars of the escaped text, and `…` after
    /// when it was cut: a bound on what is shown, whatever the text holds (each control character escapes to four
    /// or six, so cutting the text before escaping it would bound nothing).
    package static func escaped(_ text: String, _ style: Style, limit: Int) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            let piece = needsEscape(scalar, style) ? escaped(String(scalar), style) : String(scalar)
            let length = piece.unicodeScalars.count
            guard count + length <= limit else { return result + "…" }
            result += piece
            count += length
        }
        return result
    }

    /// Whether a scalar is escaped in `style`: C0 (but the tab in a log line), DEL and C1; in code, the
    /// bidirectional controls too.
    package static func needsEscape(_ scalar: Unicode.Scalar, _ style: Style) -> Bool {
        (scalar.value < 0x20 && !(style == .log && scalar == "\t")) || (0x7F...0x9F).contains(scalar.value)
            || (style == .code && (0x202A...0x202E ~= scalar.value || 0x2066...0x2069 ~= scalar.value))
    }
}
