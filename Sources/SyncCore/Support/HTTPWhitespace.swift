extension StringProtocol where SubSequence == Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    package var trimmingASCIISpaces: Substring {
        var text = self[...]
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
