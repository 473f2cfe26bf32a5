extension JSONValue {
    /// The value as compact JSON text, e.g. `"tall"` or `1.5`.
    var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .double(let value): "\(value)"
        case .string(let value): ColumnValue.jsonString(value)
        case .array(let elements): "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.sorted { $0.key < $1.key }.map { ColumnValue.jsonString($0.key) + ":" + $0.value.jsonText }
                .joined(separator: ",") + "}"
        }
    }

    /// How a decoding problem names the value: `string "tall"`, `number 1.5`, `object`, … in syncd's words.
    var problemDescription: String {
        Array(jsonText.utf8).withUnsafeBufferPointer { JSONValueDescription.describe($0) }
    }
}
