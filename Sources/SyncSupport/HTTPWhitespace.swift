// HTTP's optional whitespace (RFC 9110 §5.6.3: spaces and tabs), trimmed one way for text and for bytes.

extension StringProtocol where SubSequence == Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    package var trimmingASCIISpaces: Substring {
        var text = self[...]
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

extension ArraySlice where Element == UInt8 {
    /// The bytes without leading and trailing spaces and tabs (HTTP's optional whitespace).
    package var trimmingASCIISpaces: ArraySlice<UInt8> {
        var bytes = self
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        return bytes
    }
}
