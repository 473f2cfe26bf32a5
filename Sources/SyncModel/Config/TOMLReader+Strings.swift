import SyncSupport

/// The four kinds of TOML string: basic `"…"` with escapes, literal `'…'`, and their multi-line forms.
extension TOMLReader {
    /// `"…"`, from its opening quote.
    mutating func basicString() throws(ConfigurationError) -> String {
        try singleLineString(quote: UInt8(ascii: "\""), escapes: true)
    }

    /// `'…'`, from its opening quote: no escapes.
    mutating func literalString() throws(ConfigurationError) -> String {
        try singleLineString(quote: UInt8(ascii: "'"), escapes: false)
    }

    /// A one-line string, from its opening quote; with `escapes`, a backslash starts an escape.
    private mutating func singleLineString(quote: UInt8, escapes: Bool) throws(ConfigurationError) -> String {
        let start = mark()
        advance()
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw error("the string is not closed before the end of the file", at: start)
            }
            switch byte {
            case quote:
                advance()
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\") where escapes:
                try escape(into: &text)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                let (close, long) = escapes ? ("'\"'", "\"\"\"") : ("\"'\"", "'''")
                throw error(
                    "the string is not closed on its line: close it with \(close), or use \(long) for several lines")
            default:
                try appendStringByte(byte, to: &text)
            }
        }
    }

    /// `"""…"""` or `'''…'''`, from the opening quotes. A line end right after them is not part of the text; line
    /// ends are read as LF. In the basic form, a backslash that ends a line joins it to the next non-blank text.
    mutating func multilineString(quote: UInt8) throws(ConfigurationError) -> String {
        let start = mark()
        let isBasic = quote == UInt8(ascii: "\"")
        advance(by: 3)
        if peek() == UInt8(ascii: "\n") || peek() == UInt8(ascii: "\r") { try newline() }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw error("the string is not closed before the end of the file", at: start)
            }
            switch byte {
            case quote:
                var count = 0
                while peek() == quote {
                    count += 1
                    advance()
                }
                if count < 3 {
                    text.append(contentsOf: repeatElement(quote, count: count))
                    continue
                }
                // Up to two quotes may stand right before the closing three.
                guard count <= 5 else {
                    throw error("a multi-line string cannot end with more than five quotes: escape the extra ones")
                }
                text.append(contentsOf: repeatElement(quote, count: count - 3))
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\") where isBasic:
                if try !skipLineEndingBackslash() { try escape(into: &text) }
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                try newline()
                text.append(UInt8(ascii: "\n"))
            default:
                try appendStringByte(byte, to: &text)
            }
        }
    }

    /// A backslash followed by nothing but blanks to the end of its line: skips it and every blank and line end
    /// after it. False, with the cursor on the backslash, when it is an escape instead.
    private mutating func skipLineEndingBackslash() throws(ConfigurationError) -> Bool {
        var offset = 1
        while let byte = peek(at: offset), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { offset += 1 }
        guard let next = peek(at: offset), next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r") else {
            return false
        }
        advance(by: offset)
        while true {
            skipSpaces()
            guard peek() == UInt8(ascii: "\n") || peek() == UInt8(ascii: "\r") else { return true }
            try newline()
        }
    }

    /// One character of a string's text: any but a control character (a tab is allowed).
    private mutating func appendStringByte(_ byte: UInt8, to text: inout [UInt8]) throws(ConfigurationError) {
        guard !Self.isControl(byte) else {
            throw error("a string cannot hold control character \(describeNext()): write it as an escape")
        }
        text.append(byte)
        advance()
    }

    /// `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`, from the backslash.
    private mutating func escape(into text: inout [UInt8]) throws(ConfigurationError) {
        let start = mark()
        advance()
        let simple: UInt8?
        switch peek() {
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "u"), UInt8(ascii: "U"): simple = nil
        default:
            let written = peek().flatMap { (0x21...0x7E).contains($0) ? " \\\(Character(Unicode.Scalar($0)))" : nil }
            throw error(
                "unknown escape\(written ?? ""): a string takes \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX and \\UXXXXXXXX",
                at: start)
        }
        if let simple {
            text.append(simple)
            advance()
            return
        }
        let count = peek() == UInt8(ascii: "u") ? 4 : 8
        advance()
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let byte = peek(), let digit = ASCIIDigits.hexValue(byte) else {
                throw error("\\u takes 4 hexadecimal digits and \\U 8", at: start)
            }
            value = value << 4 | UInt32(digit)
            advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("U+\(Self.hex(value)) is not a Unicode scalar value", at: start)
        }
        text.append(contentsOf: String(Character(scalar)).utf8)
    }
}
