/// The byte classes of PostgreSQL's lexical structure, shared by the reader of `syncd sql` statements
/// (``PostgresScript``) and the reader of the expressions in their plans (``PostgresPlanExpression``).
///
/// Related PostgreSQL documentation: https://www.postgresql.org/docs/current/sql-syntax-lexical.html
enum PostgresSyntax {
    /// A space, a tab, a line feed, a vertical tab, a form feed or a carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A letter, `_`, or any byte of a non-ASCII character, as PostgreSQL's names allow.
    static func isNameStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    /// What may follow a name's first byte: also digits and `$`.
    static func isNamePart(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
    }

    /// An ASCII capital as its small letter; every other byte as it is (PostgreSQL folds unquoted names so).
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// The quoted name that starts at `index` (its `"`), with `""` for a quote: its content, `index` then just past
    /// the closing quote; nil, `index` at the end, when it does not end.
    static func quotedName(_ bytes: [UInt8], at index: inout Int) -> String? {
        var content: [UInt8] = []
        index += 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\"") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                    content.append(UInt8(ascii: "\""))
                    index += 2
                    continue
                }
                index += 1
                return String(decoding: content, as: UTF8.self)
            }
            content.append(bytes[index])
            index += 1
        }
        return nil
    }

    /// Moves `index` from a string's opening `'` to just past its closing one, `''` being a quote and, with
    /// `escapes` (`E'…'`), a backslash escaping the byte after it.
    ///
    /// - Returns: Whether the string ends; when it does not, `index` is past the end.
    static func skipString(_ bytes: [UInt8], at index: inout Int, escapes: Bool) -> Bool {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if escapes, byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "'") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "'") {
                    index += 2
                    continue
                }
                index += 1
                return true
            }
            index += 1
        }
        return false
    }
}
