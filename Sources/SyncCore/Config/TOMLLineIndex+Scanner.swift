extension TOMLLineIndex {
    /// Something in a value that toml++ 3.4 asserts on rather than refusing, at a byte index of the line.
    enum Hazard {
        /// A `}` where an array element should be (`parse_value`).
        case braceInArray(Int)
        /// A bare value that is not `true`, `false` or a decimal number: toml++'s date, time and special-number
        /// parsers assert on some malformed ones (`parse_time` on `1979-05-27Tx`).
        case unusualValue(Int)
        /// A bare value run straight into `[`, `{`, a quote or `=`: toml++ looks past it for a date and asserts
        /// (`parse_value` on `1["-----Aa 8 1[-`, found by the config fuzz target).
        case unseparatedValue(Int)
    }

    /// Follows values across lines: strings, multi-line strings, arrays and inline tables, and checks bare values.
    struct Scanner {
        private enum Mode { case normal, multilineBasic, multilineLiteral }
        private var mode = Mode.normal
        /// The open `[` and `{`, innermost last.
        private var open: [UInt8] = []
        /// Whether the scan is before the `=` of a key inside an inline table.
        private var inKey = false

        var isAtTopLevel: Bool { mode == .normal && open.isEmpty }

        static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

        /// Scans the rest of a line from a value's start (or from inside one); returns the first hazard.
        mutating func scan(_ bytes: ArraySlice<UInt8>) -> Hazard? {
            var rest = bytes
            while let byte = rest.first {
                if mode != .normal {
                    skipMultilineString(&rest)
                    continue
                }
                switch byte {
                case UInt8(ascii: "#"):
                    return nil
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    if !inKey, rest.starts(with: [byte, byte, byte]) {
                        mode = byte == UInt8(ascii: "\"") ? .multilineBasic : .multilineLiteral
                        rest = rest.dropFirst(3)
                    } else {
                        // An unterminated string ends the line (the document is invalid anyway).
                        guard Self.quoted(&rest) != nil else { return nil }
                    }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    open.append(byte)
                    inKey = byte == UInt8(ascii: "{")
                    rest = rest.dropFirst()
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if byte == UInt8(ascii: "}"), open.last == UInt8(ascii: "[") {
                        return .braceInArray(rest.startIndex)
                    }
                    open.removeLast(open.isEmpty ? 0 : 1)
                    inKey = false
                    rest = rest.dropFirst()
                case UInt8(ascii: ","):
                    inKey = open.last == UInt8(ascii: "{")
                    rest = rest.dropFirst()
                case UInt8(ascii: "="):
                    inKey = false
                    rest = rest.dropFirst()
                default:
                    let token = rest.prefix { !Self.endsToken($0) }
                    guard !token.isEmpty else {
                        rest = rest.dropFirst()
                        continue
                    }
                    if !inKey, !Self.isPlainValue(token) { return .unusualValue(token.startIndex) }
                    rest = rest.dropFirst(token.count)
                    if !inKey, let next = rest.first, "[{\"'=".utf8.contains(next) {
                        return .unseparatedValue(rest.startIndex)
                    }
                }
            }
            return nil
        }

        private mutating func skipMultilineString(_ rest: inout ArraySlice<UInt8>) {
            let quote = mode == .multilineBasic ? UInt8(ascii: "\"") : UInt8(ascii: "'")
            if rest.first == UInt8(ascii: "\\"), mode == .multilineBasic {
                rest = rest.dropFirst(2)
            } else if rest.starts(with: [quote, quote, quote]) {
                rest = rest.dropFirst(3).drop { $0 == quote }
                mode = .normal
            } else {
                rest = rest.dropFirst()
            }
        }

        private static func endsToken(_ byte: UInt8) -> Bool {
            isSpace(byte) || "#\"'[]{},=".utf8.contains(byte)
        }

        /// `true`, `false`, or a TOML decimal integer or float: the only bare values syncd's configuration takes.
        static func isPlainValue(_ token: ArraySlice<UInt8>) -> Bool {
            if token.elementsEqual("true".utf8) || token.elementsEqual("false".utf8) { return true }
            var rest = token
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
            if rest.first == UInt8(ascii: "0") {
                rest = rest.dropFirst()
            } else if !digits(&rest) {
                return false
            }
            if rest.first == UInt8(ascii: ".") {
                rest = rest.dropFirst()
                guard digits(&rest) else { return false }
            }
            if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
                rest = rest.dropFirst()
                if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
                guard digits(&rest) else { return false }
            }
            return rest.isEmpty
        }

        /// Consumes `DIGIT *( DIGIT / "_" DIGIT )`; false when there is no digit.
        private static func digits(_ rest: inout ArraySlice<UInt8>) -> Bool {
            guard let first = rest.first, isDigit(first) else { return false }
            rest = rest.dropFirst()
            while let byte = rest.first {
                if isDigit(byte) {
                    rest = rest.dropFirst()
                } else if byte == UInt8(ascii: "_"), let next = rest.dropFirst().first, isDigit(next) {
                    rest = rest.dropFirst(2)
                } else {
                    break
                }
            }
            return true
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        /// Reads a dotted key (`a`, `"b c".d`, `'e'`) after `skip` bytes, leaving `bytes` after it and any spaces
        /// (and after a header's closing brackets).
        static func keys(_ bytes: inout ArraySlice<UInt8>, from skip: Int) -> [String]? {
            var rest = bytes.dropFirst(skip).drop(while: isSpace)
            var names: [String] = []
            while true {
                if rest.first == UInt8(ascii: "\"") || rest.first == UInt8(ascii: "'") {
                    guard let name = quoted(&rest) else { return nil }
                    names.append(name)
                } else {
                    let name = rest.prefix(while: isBareKeyByte)
                    guard !name.isEmpty else { return nil }
                    names.append(String(decoding: name, as: UTF8.self))
                    rest = rest.dropFirst(name.count)
                }
                rest = rest.drop(while: isSpace)
                guard rest.first == UInt8(ascii: ".") else { break }
                rest = rest.dropFirst().drop(while: isSpace)
            }
            bytes = rest.drop { $0 == UInt8(ascii: "]") || isSpace($0) }
            return names
        }

        /// Reads a one-line basic or literal string from its opening quote. An escape keeps the escaped character
        /// (`\"` is `"`), which is all keys need.
        static func quoted(_ bytes: inout ArraySlice<UInt8>) -> String? {
            guard let quote = bytes.first else { return nil }
            var rest = bytes.dropFirst()
            var value: [UInt8] = []
            while let byte = rest.first, byte != quote {
                if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\""), let escaped = rest.dropFirst().first {
                    value.append(escaped)
                    rest = rest.dropFirst(2)
                } else {
                    value.append(byte)
                    rest = rest.dropFirst()
                }
            }
            guard rest.first == quote else { return nil }
            bytes = rest.dropFirst()
            return String(decoding: value, as: UTF8.self)
        }

        /// Whether toml++ may be handed a header whose name starts with `byte`: a key, or `]` (which it refuses).
        static func canStartHeaderName(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return isBareKeyByte(byte) || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
                || byte == UInt8(ascii: "]")
        }

        private static func isBareKeyByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
