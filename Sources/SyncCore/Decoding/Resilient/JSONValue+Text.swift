extension JSONValue {
    /// The value as compact JSON text, e.g. `"tall"` or `1.5`.
    var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .double(let value): "\(value)"
        case .string(let value): Self.quoted(value)
        case .array(let elements): "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + $0.value.jsonText }
                .joined(separator: ",") + "}"
        }
    }

    /// How a decoding problem names the value: `string "tall"`, `number 1.5`, `object`, … in syncd's words.
    var problemDescription: String {
        Array(jsonText.utf8).withUnsafeBufferPointer { JSONValueDescription.describe($0) }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
