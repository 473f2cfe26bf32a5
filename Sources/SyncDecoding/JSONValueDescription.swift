/// What a problem says it found: `string "really far north"`, `number 1.5`, `boolean true`, `object`,
/// `array`, `null`, or `missing`.
///
/// Strings and numbers are shown as received (a string keeps its escapes, so it reads as JSON), cut
/// after 40 characters with "…".
enum JSONValueDescription {
    static let missing = "missing"
    static let maximumCharacters = 40

    static func describe(_ value: UnsafeBufferPointer<UInt8>) -> String {
        switch value.first {
        case JSONByte.quote: "string \"" + cut(ColumnConversion.content(of: value)) + "\""
        case JSONByte.openBrace: "object"
        case JSONByte.openBracket: "array"
        case JSONByte.lowerT: "boolean true"
        case JSONByte.lowerF: "boolean false"
        case JSONByte.lowerN: "null"
        case nil: missing
        default: "number " + cut(value)
        }
    }

    /// The first 40 characters (an escape counting as one), with "…" when there were more.
    private static func cut(_ text: UnsafeBufferPointer<UInt8>) -> String {
        var index = 0
        var characters = 0
        while index < text.count {
            guard characters < maximumCharacters else {
                return String(decoding: UnsafeBufferPointer(rebasing: text[0..<index]), as: UTF8.self) + "…"
            }
            index += length(ofCharacterAt: index, in: text)
            characters += 1
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func length(ofCharacterAt index: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        let byte = text[index]
        let length: Int
        if byte == JSONByte.backslash {
            let isUnicode = index + 1 < text.count && text[index + 1] == 0x75  // u
            let isPair =
                isUnicode && index + 7 < text.count && text[index + 6] == JSONByte.backslash
                && text[index + 7] == 0x75 && (0xD8...0xDB).contains(highByte(ofEscapeAt: index, in: text))
            length = isPair ? 12 : isUnicode ? 6 : 2
        } else if byte < 0x80 {
            length = 1
        } else if byte < 0xE0 {
            length = 2
        } else if byte < 0xF0 {
            length = 3
        } else {
            length = 4
        }
        return min(length, text.count - index)
    }

    /// The first byte of the code unit of the `\uXXXX` escape at `index`, to tell a high surrogate.
    private static func highByte(ofEscapeAt index: Int, in text: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard index + 3 < text.count, let high = JSONStringContent.hexValue(text[index + 2]),
            let low = JSONStringContent.hexValue(text[index + 3])
        else { return 0 }
        return high << 4 | low
    }
}
