/// A JSON number literal read exactly, as `significand × 10^exponent`, for conversions that must not
/// go through `Double` (integers, Unix timestamps) and for a fast path to `Double` that does.
struct DecimalLiteral {
    var isNegative = false
    /// The significant digits without leading or trailing zeros; never ends in 0. Zero for the value 0.
    var significand: UInt64 = 0
    /// How many digits `significand` holds (at most 19).
    var digitCount = 0
    var exponent = 0
    /// False when digits beyond the 19th were dropped (the value is then approximate).
    var isExact = true
    /// Whether the literal has a fraction or an exponent part (`1.0`, `1e3`).
    var hasFractionOrExponent = false

    /// Reads a literal in RFC 8259's number grammar; nil for anything else (the whole buffer must be the number).
    init?(_ literal: UnsafeBufferPointer<UInt8>) {
        var index = 0
        var pendingZeros = 0
        if index < literal.count, literal[index] == JSONByte.minus {
            isNegative = true
            index += 1
        }
        let integerStart = index
        while index < literal.count, JSONByte.isDigit(literal[index]) {
            push(literal[index] - JSONByte.zero, isFraction: false, pendingZeros: &pendingZeros)
            index += 1
        }
        let integerDigits = index - integerStart
        guard integerDigits > 0, integerDigits == 1 || literal[integerStart] != JSONByte.zero else { return nil }
        if index < literal.count, literal[index] == JSONByte.period {
            hasFractionOrExponent = true
            index += 1
            let fractionStart = index
            while index < literal.count, JSONByte.isDigit(literal[index]) {
                push(literal[index] - JSONByte.zero, isFraction: true, pendingZeros: &pendingZeros)
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        exponent += pendingZeros
        if index < literal.count, literal[index] | 0x20 == JSONByte.lowerE {
            hasFractionOrExponent = true
            index += 1
            var exponentIsNegative = false
            if index < literal.count, literal[index] == JSONByte.plus || literal[index] == JSONByte.minus {
                exponentIsNegative = literal[index] == JSONByte.minus
                index += 1
            }
            let exponentStart = index
            var written = 0
            while index < literal.count, JSONByte.isDigit(literal[index]) {
                // Past a million the value is 0 or infinite anyway; capping keeps the sum from overflowing.
                written = min(written * 10 + Int(literal[index] - JSONByte.zero), 1_000_000)
                index += 1
            }
            guard index > exponentStart else { return nil }
            exponent += exponentIsNegative ? -written : written
        }
        guard index == literal.count else { return nil }
        if digitCount == 0 { exponent = 0 }
    }

    private mutating func push(_ digit: UInt8, isFraction: Bool, pendingZeros: inout Int) {
        if isFraction { exponent -= 1 }
        guard digit != 0 else {
            if digitCount > 0 { pendingZeros += 1 }
            return
        }
        if digitCount + pendingZeros < 19 {
            for _ in 0..<pendingZeros { significand &*= 10 }
            significand = significand &* 10 &+ UInt64(digit)
            digitCount += pendingZeros + 1
        } else {
            // The digit (and the zeros before it) no longer fit: keep the leading digits and scale them.
            isExact = false
            exponent += pendingZeros + 1
        }
        pendingZeros = 0
    }

    /// The value as an Int64 when it is an integer that fits (`12`, `12.0`, `1.2e1`, `-9223372036854775808`).
    var exactInteger: Int64? {
        if digitCount == 0 { return 0 }
        guard isExact, exponent >= 0, exponent <= 19 else { return nil }
        var magnitude = significand
        for _ in 0..<exponent {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            magnitude = product
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The value scaled by 10^`scale` and truncated towards zero, when it fits in an Int128.
    func scaledInteger(by scale: Int) -> Int128? {
        if digitCount == 0 { return 0 }
        let power = exponent + scale
        var magnitude = Int128(significand)
        if power >= 0 {
            // The significand is below 10^digitCount; Int128 holds anything below 10^38.
            guard digitCount + power <= 38 else { return nil }
            for _ in 0..<power { magnitude *= 10 }
        } else {
            guard power > -20 else { return 0 }
            for _ in 0..<(-power) { magnitude /= 10 }
        }
        return isNegative ? -magnitude : magnitude
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The nearest Double, computed directly when that is exact (Clinger's fast path: a significand
    /// below 2^53 and a power of ten up to 22 are both exact, so one multiplication or division rounds once).
    ///
    /// - Returns: nil when the fast path does not apply; the caller then asks the standard library.
    var fastDouble: Double? {
        if digitCount == 0 { return isNegative ? -0.0 : 0.0 }
        guard isExact, significand <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let value = Double(significand)
        let scaled = exponent < 0 ? value / Self.powersOfTen[-exponent] : value * Self.powersOfTen[exponent]
        return isNegative ? -scaled : scaled
    }

    /// A number literal as a Double; nil when it is not finite (such as `1e400`).
    static func double(_ literal: UnsafeBufferPointer<UInt8>, decimal: DecimalLiteral) -> Double? {
        let value = decimal.fastDouble ?? Double(String(decoding: literal, as: UTF8.self))
        guard let value, value.isFinite else { return nil }
        return value
    }
}
