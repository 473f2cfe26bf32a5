/// Text from outside — record values, upstream-derived error sentences — made safe to print: an upstream must not
/// be able to drive the operator's terminal (move the cursor, recolour, retitle the window, fake a prompt).
enum TerminalText {
    /// `text` with every control character — C0 (U+0000–U+001F, tab and line breaks included), DEL (U+007F) and
    /// C1 (U+0080–U+009F) — written as a `\u001b`-style escape. ESC and CSI are among them, so an escape sequence
    /// loses its start and prints as plain characters.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
