/// How text goes into a log line so that one message is one line: the escaping behind ``JournalLogHandler``.
enum LogLineText {
    /// `text` with line breaks and other control characters escaped: `\n`, `\r`, and `\xHH` for the rest of C0, DEL
    /// and C1 (a tab stays). journald would split a line feed into two entries, and a terminal would obey an escape.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case _ where needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A metadata value: ``escaped(_:)``, then quoted when it is empty or holds a space, a tab or a quote, with `\`
    /// and `"` escaped inside the quotes, so `key=value` pairs split back unambiguously.
    static func value(_ text: String) -> String {
        let text = escaped(text)
        guard text.isEmpty || text.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) else { return text }
        var quoted = "\""
        for character in text {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// C0 controls but the tab, DEL, and C1 controls.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
