import SyncSupport

/// TOML's dates and times (RFC 3339 with TOML's relaxations), checked field by field and kept as written.
///
/// Forms: `1979-05-27T07:32:00Z` and `1979-05-27 07:32:00.5-07:00` (offset date-time), `1979-05-27T07:32:00` (local
/// date-time), `1979-05-27` (local date) and `07:32:00.999` (local time). Seconds are required (TOML 1.0). A leap second
/// (60) is refused, as Python's tomllib refuses it.
enum TOMLDateTime {
    /// Whether `token` is exactly `YYYY-MM-DD` in shape.
    static func isDate(_ token: [UInt8]) -> Bool {
        token.count == 10 && token[4] == UInt8(ascii: "-") && token[7] == UInt8(ascii: "-")
            && [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { ASCIIDigits.isDigit(token[$0]) }
    }

    /// The date or time `token` writes; nil when it does not look like one at all.
    ///
    /// - Throws: ``TOMLValueError`` for a date or time that looks like one but is not valid.
    static func parse(_ token: [UInt8]) throws(TOMLValueError) -> TOMLValue? {
        let looksLikeDate =
            token.count >= 5 && token[..<4].allSatisfy(ASCIIDigits.isDigit) && token[4] == UInt8(ascii: "-")
        let looksLikeTime =
            token.count >= 3 && token[..<2].allSatisfy(ASCIIDigits.isDigit) && token[2] == UInt8(ascii: ":")
        guard looksLikeDate || looksLikeTime else { return nil }
        guard isValid(token[...]) else { throw TOMLValueError(reason: .invalidDate) }
        return .dateTime(String(decoding: token, as: UTF8.self))
    }

    private static func isValid(_ token: ArraySlice<UInt8>) -> Bool {
        var rest = token
        if isDate(Array(rest.prefix(10))) {
            guard validDate(rest.prefix(10)) else { return false }
            rest = rest.dropFirst(10)
            guard let separator = rest.first else { return true }
            guard "Tt ".utf8.contains(separator) else { return false }
            rest = rest.dropFirst()
            guard time(&rest) else { return false }
            return offset(rest)
        }
        return time(&rest) && rest.isEmpty
    }

    private static func validDate(_ date: ArraySlice<UInt8>) -> Bool {
        let year = number(date.prefix(4))
        let month = number(date.dropFirst(5).prefix(2))
        let day = number(date.dropFirst(8).prefix(2))
        return (1...12).contains(month) && (1...CivilDate.daysInMonth(month, year: year)).contains(day)
    }

    /// `HH:MM:SS(.fraction)?`, consumed from `rest`.
    private static func time(_ rest: inout ArraySlice<UInt8>) -> Bool {
        guard rest.count >= 8, twoDigits(rest.prefix(2), in: 0...23), rest[rest.startIndex + 2] == UInt8(ascii: ":"),
            twoDigits(rest.dropFirst(3).prefix(2), in: 0...59), rest[rest.startIndex + 5] == UInt8(ascii: ":"),
            twoDigits(rest.dropFirst(6).prefix(2), in: 0...59)
        else { return false }
        rest = rest.dropFirst(8)
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix(while: ASCIIDigits.isDigit)
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(1 + digits.count)
        }
        return true
    }

    /// Nothing (a local date-time), `Z`, or `±HH:MM`.
    private static func offset(_ rest: ArraySlice<UInt8>) -> Bool {
        if rest.isEmpty || rest.elementsEqual("Z".utf8) || rest.elementsEqual("z".utf8) { return true }
        guard rest.count == 6, let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
            twoDigits(rest.dropFirst().prefix(2), in: 0...23), rest[rest.startIndex + 3] == UInt8(ascii: ":"),
            twoDigits(rest.dropFirst(4), in: 0...59)
        else { return false }
        return true
    }

    private static func twoDigits(_ digits: ArraySlice<UInt8>, in range: ClosedRange<Int>) -> Bool {
        digits.count == 2 && digits.allSatisfy(ASCIIDigits.isDigit) && range.contains(number(digits))
    }

    /// The value of ASCII digits (at most four here, so no overflow).
    private static func number(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
