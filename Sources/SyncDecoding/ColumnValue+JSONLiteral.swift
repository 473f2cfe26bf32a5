extension ColumnValue {
    /// The value as a JSON literal: `8`, `1.5`, `"text"` (JSON-escaped), `null`.
    ///
    /// A real that is not finite has no JSON form and is written `null`.
    package var jsonLiteral: String {
        switch self {
        case .null: "null"
        case .integer(let integer): String(integer)
        case .real(let real): real.isFinite ? String(real) : "null"
        case .text(let text): Self.jsonString(text)
        }
    }

    /// A record key as JSON: one value's literal, or an array of them for a composite key.
    ///
    /// ```swift
    /// ColumnValue.keyJSON([.integer(8)])               // 8
    /// ColumnValue.keyJSON([.integer(1), .text("x")])   // [1,"x"]
    /// ```
    ///
    /// - Parameter values: the key's values, in key order.
    /// - Returns: the JSON text.
    package static func keyJSON(_ values: [ColumnValue]) -> String {
        if values.count == 1, let value = values.first { return value.jsonLiteral }
        return "[" + values.map(\.jsonLiteral).joined(separator: ",") + "]"
    }

    /// Text as a JSON string: quotes, backslashes and control characters escaped, everything else as is.
    package static func jsonString(_ text: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        result += "\""
        return result
    }
}
