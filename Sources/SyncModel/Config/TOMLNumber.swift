import SyncSupport

/// TOML's integers and floats, from the characters of a bare value.
///
/// Integers: decimal with an optional sign and no leading zero, or `0x`, `0o`, `0b` without a sign; an underscore
/// only between two digits; 64-bit. Floats: a decimal integer part, then a fraction, an exponent or both; or `inf`
/// and `nan` with an optional sign.
enum TOMLNumber {
    /// The number `token` writes; nil when it is not written as a number at all.
    ///
    /// - Throws: ``TOMLValueError`` for a number out of range.
    static func parse(_ token: [UInt8]) throws(TOMLValueError) -> TOMLValue? {
        var body = token[...]
        var isNegative = false
        if let sign = body.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            isNegative = sign == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        if body.elementsEqual("inf".utf8) { return .float(isNegative ? -.infinity : .infinity) }
        if body.elementsEqual("nan".utf8) { return .float(.nan) }
        if body.count > 2, body.first == UInt8(ascii: "0"), body.count == token.count,
            let radix = radix(of: body[body.startIndex + 1])
        {
            let digits = body.dropFirst(2)
            guard isDigitRun(digits, radix: radix) else { return nil }
            guard let value = Int(text(of: digits), radix: radix) else {
                throw TOMLValueError(reason: .integerOutOfRange)
            }
            return .integer(value)
        }
        if isDecimalInteger(body) {
            guard let value = Int((isNegative ? "-" : "") + text(of: body)) else {
                throw TOMLValueError(reason: .integerOutOfRange)
            }
            return .integer(value)
        }
        guard isFloat(body), let value = Double(text(of: body)) else { return nil }
        guard value.isFinite else { throw TOMLValueError(reason: .floatOutOfRange) }
        return .float(isNegative ? -value : value)
    }

    /// `x`, `o`, `b` after a leading zero.
    private static func radix(of byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    /// `0`, or digits that do not start with `0`.
    private static func isDecimalInteger(_ body: ArraySlice<UInt8>) -> Bool {
        isDigitRun(body, radix: 10) && (body.count == 1 || body.first != UInt8(ascii: "0"))
    }

    /// `integer ( "." digits )? ( [eE] [+-]? digits )?` with at least one of the two parts.
    private static func isFloat(_ body: ArraySlice<UInt8>) -> Bool {
        let exponentStart = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = body[..<(exponentStart ?? body.endIndex)]
        let pointIndex = mantissa.firstIndex(of: UInt8(ascii: "."))
        guard isDecimalInteger(mantissa[..<(pointIndex ?? mantissa.endIndex)]) else { return false }
        if let pointIndex, !isDigitRun(mantissa[(pointIndex + 1)...], radix: 10) { return false }
        if let exponentStart {
            var exponent = body[(exponentStart + 1)...]
            if let sign = exponent.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponent = exponent.dropFirst()
            }
            guard isDigitRun(exponent, radix: 10) else { return false }
        }
        return pointIndex != nil || exponentStart != nil
    }

    /// One or more digits of `radix`, an underscore allowed only between two of them.
    private static func isDigitRun(_ digits: ArraySlice<UInt8>, radix: Int) -> Bool {
        guard let first = digits.first, let last = digits.last, isDigit(first, radix), isDigit(last, radix) else {
            return false
        }
        var previous = first
        for byte in digits.dropFirst() {
            if byte == UInt8(ascii: "_") {
                guard previous != UInt8(ascii: "_") else { return false }
            } else if !isDigit(byte, radix) {
                return false
            }
            previous = byte
        }
        return true
    }

    private static func isDigit(_ byte: UInt8, _ radix: Int) -> Bool {
        guard let value = ASCIIDigits.hexValue(byte) else { return false }
        return Int(value) < radix
    }

    /// The digits without underscores.
    private static func text(of digits: ArraySlice<UInt8>) -> String {
        String(decoding: digits.lazy.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
    }
}
