/// Text from outside (endpoint names, upstream error sentences, URLs) made inert in HTML: the five characters that
/// can end a text node or an attribute value become references, and control characters, which no page needs, become
/// U+FFFD. Every string the status page did not write itself goes through ``escape(_:)``.
enum HTMLText {
    /// `text` safe in element content and in a double- or single-quoted attribute value.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
