/// Converting one JSON value to a column's type, by the table in ``ColumnType``.
///
/// Values reach here already checked by ``JSONScanner``, so their first byte says what they are.
/// JSON `null` never reaches here: it is NULL for every type, which the caller handles.
enum ColumnConversion {
    enum Outcome {
        case value(ColumnValue)
        /// Converted, but a lone surrogate escape in the text became U+FFFD.
        case replaced(ColumnValue)
        case mistyped
    }

    static func convert(
        _ value: UnsafeBufferPointer<UInt8>,
        to type: ColumnType,
        strict: Bool,
        scratch: inout [UInt8]
    ) -> Outcome {
        guard let first = value.first else { return .mistyped }
        let isString = first == JSONByte.quote
        let isNumber = first == JSONByte.minus || JSONByte.isDigit(first)
        switch type {
        case .text:
            if isString {
                let (text, replaced) = JSONStringContent.text(content(of: value), scratch: &scratch)
                return replaced ? .replaced(.text(text)) : .value(.text(text))
            }
            guard !strict else { return .mistyped }
            if isNumber { return .value(.text(String(decoding: value, as: UTF8.self))) }
            if first == JSONByte.lowerT { return .value(.text("true")) }
            if first == JSONByte.lowerF { return .value(.text("false")) }
            return .mistyped
        case .integer:
            if isNumber, let decimal = DecimalLiteral(value), !strict || !decimal.hasFractionOrExponent,
                let integer = decimal.exactInteger
            {
                return .value(.integer(integer))
            }
            if isString, !strict,
                let integer = JSONStringContent.withUnescaped(content(of: value), scratch: &scratch, integer(fromText:))
            {
                return .value(.integer(integer))
            }
            return .mistyped
        case .real:
            if isNumber, let real = real(fromLiteral: value) { return .value(.real(real)) }
            if isString, !strict,
                let real = JSONStringContent.withUnescaped(content(of: value), scratch: &scratch, real(fromLiteral:))
            {
                return .value(.real(real))
            }
            return .mistyped
        case .boolean:
            return boolean(value, first: first, strict: strict, scratch: &scratch).map { .value(.integer($0)) }
                ?? .mistyped
        case .json:
            return .value(.text(String(decoding: value, as: UTF8.self)))
        case .timestamp:
            if isString {
                let timestamp = JSONStringContent.withUnescaped(content(of: value), scratch: &scratch) { text in
                    RFC3339Timestamp(parsing: text, allowsSpace: !strict)
                }
                return timestamp.map { .value(.text($0.text)) } ?? .mistyped
            }
            if isNumber, !strict, let timestamp = timestamp(fromUnixTime: value) {
                return .value(.text(timestamp.text))
            }
            return .mistyped
        }
    }

    /// The bytes between a string's quotes.
    @inline(__always)
    static func content(of string: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard string.count >= 2 else { return UnsafeBufferPointer(rebasing: string[0..<0]) }
        return UnsafeBufferPointer(rebasing: string[1..<(string.count - 1)])
    }

    /// `12`, `-12`, `007`: digits with an optional leading minus, nothing else.
    static func integer(fromText text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let isNegative = text.first == JSONByte.minus
        if isNegative { index = 1 }
        guard index < text.count else { return nil }
        var magnitude: UInt64 = 0
        while index < text.count {
            let byte = text[index]
            guard JSONByte.isDigit(byte) else { return nil }
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = product.addingReportingOverflow(UInt64(byte - JSONByte.zero))
            guard !overflow, !carry else { return nil }
            magnitude = sum
            index += 1
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A finite Double from text in JSON's number grammar.
    static func real(fromLiteral literal: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let decimal = DecimalLiteral(literal) else { return nil }
        return DecimalLiteral.double(literal, decimal: decimal)
    }

    private static func boolean(
        _ value: UnsafeBufferPointer<UInt8>,
        first: UInt8,
        strict: Bool,
        scratch: inout [UInt8]
    ) -> Int64? {
        if first == JSONByte.lowerT { return 1 }
        if first == JSONByte.lowerF { return 0 }
        guard !strict else { return nil }
        if first == JSONByte.quote {
            return JSONStringContent.withUnescaped(content(of: value), scratch: &scratch) { text -> Int64? in
                if text.elementsEqual("true".utf8) { return 1 }
                if text.elementsEqual("false".utf8) { return 0 }
                return nil
            }
        }
        guard let integer = DecimalLiteral(value)?.exactInteger, integer == 0 || integer == 1 else { return nil }
        return integer
    }

    /// Unix time in seconds, or in milliseconds when its magnitude is 10^11 or more (past the year 5138 in
    /// seconds, but only 1973 in milliseconds).
    static func timestamp(fromUnixTime literal: UnsafeBufferPointer<UInt8>) -> RFC3339Timestamp? {
        guard let decimal = DecimalLiteral(literal) else { return nil }
        let isMilliseconds = decimal.digitCount > 0 && decimal.digitCount + decimal.exponent >= 12
        guard let nanoseconds = decimal.scaledInteger(by: isMilliseconds ? 6 : 9) else { return nil }
        return RFC3339Timestamp(nanosecondsSinceEpoch: nanoseconds)
    }
}
