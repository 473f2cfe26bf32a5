import SyncTesting
import Testing

@testable import SyncCore

/// One JSON value converted to one type, leniently and strictly; nil means mistyped.
struct ConversionCase: Sendable, CustomTestStringConvertible {
    var literal: String
    var type: ColumnType
    var lenient: ColumnValue?
    var strict: ColumnValue?

    init(_ literal: String, _ type: ColumnType, lenient: ColumnValue?, strict: ColumnValue?) {
        self.literal = literal
        self.type = type
        self.lenient = lenient
        self.strict = strict
    }

    init(_ literal: String, _ type: ColumnType, both: ColumnValue?) {
        self.init(literal, type, lenient: both, strict: both)
    }

    var testDescription: String { "\(type.rawValue) from \(literal)" }
}

@Suite("Converting values to column types")
struct ColumnConversionTests {
    static let integerCases: [ConversionCase] = [
        ConversionCase("12", .integer, both: .integer(12)),
        ConversionCase("-12", .integer, both: .integer(-12)),
        ConversionCase("0", .integer, both: .integer(0)),
        ConversionCase("-0", .integer, both: .integer(0)),
        ConversionCase("9223372036854775807", .integer, both: .integer(.max)),
        ConversionCase("-9223372036854775808", .integer, both: .integer(.min)),
        ConversionCase("9223372036854775808", .integer, both: nil),
        ConversionCase("-9223372036854775809", .integer, both: nil),
        ConversionCase("12.0", .integer, lenient: .integer(12), strict: nil),
        ConversionCase("1e3", .integer, lenient: .integer(1000), strict: nil),
        ConversionCase("1.5e1", .integer, lenient: .integer(15), strict: nil),
        ConversionCase("100e-2", .integer, lenient: .integer(1), strict: nil),
        ConversionCase("0.0e5", .integer, lenient: .integer(0), strict: nil),
        ConversionCase("12345678901234567890e-1", .integer, lenient: .integer(1_234_567_890_123_456_789), strict: nil),
        ConversionCase("1e19", .integer, both: nil),
        ConversionCase("1.5", .integer, both: nil),
        ConversionCase("1.0000000000000000000001", .integer, both: nil),
        ConversionCase(#""12""#, .integer, lenient: .integer(12), strict: nil),
        ConversionCase(#""-7""#, .integer, lenient: .integer(-7), strict: nil),
        ConversionCase(#""007""#, .integer, lenient: .integer(7), strict: nil),
        ConversionCase(#""\u0031\u0032""#, .integer, lenient: .integer(12), strict: nil),
        ConversionCase(#""-9223372036854775808""#, .integer, lenient: .integer(.min), strict: nil),
        ConversionCase(#""9223372036854775808""#, .integer, both: nil),
        ConversionCase(#"" 12""#, .integer, both: nil),
        ConversionCase(#""12 ""#, .integer, both: nil),
        ConversionCase(#""+1""#, .integer, both: nil),
        ConversionCase(#""1.0""#, .integer, both: nil),
        ConversionCase(#""""#, .integer, both: nil),
        ConversionCase(#""-""#, .integer, both: nil),
        ConversionCase("true", .integer, both: nil),
        ConversionCase("{}", .integer, both: nil),
        ConversionCase("[1]", .integer, both: nil),
    ]

    static let realCases: [ConversionCase] = [
        ConversionCase("1.5", .real, both: .real(1.5)),
        ConversionCase("-37.3159", .real, both: .real(-37.3159)),
        ConversionCase("12", .real, both: .real(12)),
        ConversionCase("1e3", .real, both: .real(1000)),
        ConversionCase("-0.0", .real, both: .real(-0.0)),
        ConversionCase("0.1", .real, both: .real(0.1)),
        ConversionCase("123456789012345678901234567890", .real, both: .real(1.2345678901234568e29)),
        ConversionCase("2.2250738585072014e-308", .real, both: .real(2.2250738585072014e-308)),
        ConversionCase("5e-324", .real, both: .real(.leastNonzeroMagnitude)),
        ConversionCase("9007199254740993", .real, both: .real(9_007_199_254_740_992)),
        ConversionCase("1e400", .real, both: nil),
        ConversionCase(#""-37.3159""#, .real, lenient: .real(-37.3159), strict: nil),
        ConversionCase(#""1e2""#, .real, lenient: .real(100), strict: nil),
        ConversionCase(#"" 1""#, .real, both: nil),
        ConversionCase(#""NaN""#, .real, both: nil),
        ConversionCase(#""abc""#, .real, both: nil),
        ConversionCase("false", .real, both: nil),
        ConversionCase(#"{"a": 1}"#, .real, both: nil),
    ]

    static let textCases: [ConversionCase] = [
        ConversionCase(#""hello""#, .text, both: .text("hello")),
        ConversionCase(#""""#, .text, both: .text("")),
        ConversionCase(#""Zo\u00eb""#, .text, both: .text("Zoë")),
        ConversionCase(#""\ud83d\ude00 😀""#, .text, both: .text("😀 😀")),
        ConversionCase(#""\"\\\/\b\f\n\r\t""#, .text, both: .text("\"\\/\u{08}\u{0C}\n\r\t")),
        ConversionCase(#""\u0000""#, .text, both: .text("\u{0}")),
        ConversionCase("1.50", .text, lenient: .text("1.50"), strict: nil),
        ConversionCase("-0", .text, lenient: .text("-0"), strict: nil),
        ConversionCase("1E+2", .text, lenient: .text("1E+2"), strict: nil),
        ConversionCase("true", .text, lenient: .text("true"), strict: nil),
        ConversionCase("false", .text, lenient: .text("false"), strict: nil),
        ConversionCase("{}", .text, both: nil),
        ConversionCase(#"["a"]"#, .text, both: nil),
    ]

    static let booleanCases: [ConversionCase] = [
        ConversionCase("true", .boolean, both: .integer(1)),
        ConversionCase("false", .boolean, both: .integer(0)),
        ConversionCase(#""true""#, .boolean, lenient: .integer(1), strict: nil),
        ConversionCase(#""false""#, .boolean, lenient: .integer(0), strict: nil),
        ConversionCase("1", .boolean, lenient: .integer(1), strict: nil),
        ConversionCase("0", .boolean, lenient: .integer(0), strict: nil),
        ConversionCase("1.0", .boolean, lenient: .integer(1), strict: nil),
        ConversionCase("2", .boolean, both: nil),
        ConversionCase("-1", .boolean, both: nil),
        ConversionCase(#""TRUE""#, .boolean, both: nil),
        ConversionCase(#""yes""#, .boolean, both: nil),
        ConversionCase(#""1""#, .boolean, both: nil),
        ConversionCase("[]", .boolean, both: nil),
    ]

    static let jsonCases: [ConversionCase] = [
        ConversionCase(#"{"a" : [1, 2.50, "\u00e9"]}"#, .json, both: .text(#"{"a" : [1, 2.50, "\u00e9"]}"#)),
        ConversionCase(#""x\n""#, .json, both: .text(#""x\n""#)),
        ConversionCase("12.50", .json, both: .text("12.50")),
        ConversionCase("true", .json, both: .text("true")),
        ConversionCase("[ ]", .json, both: .text("[ ]")),
    ]

    @Test(
        "each type converts its values, leniently and strictly",
        arguments: integerCases + realCases + textCases + booleanCases + jsonCases
    )
    func conversion(_ testCase: ConversionCase) throws {
        for (strict, expected) in [(false, testCase.lenient), (true, testCase.strict)] {
            let (value, problems) = try convertValue(testCase.literal, to: testCase.type, strict: strict)
            if let expected {
                #expect(value == expected, "strict: \(strict)")
                #expect(problems.isEmpty, "strict: \(strict)")
            } else {
                #expect(value == .null, "strict: \(strict)")
                #expect(problems.map(\.action) == [.nulled], "strict: \(strict)")
                #expect(problems.map(\.expected) == [testCase.type.rawValue], "strict: \(strict)")
            }
        }
    }

    @Test("JSON null is NULL for every type, with no problem for an optional column", arguments: ColumnType.allCases)
    func nullForEveryType(_ type: ColumnType) throws {
        for strict in [false, true] {
            let (value, problems) = try convertValue("null", to: type, strict: strict)
            #expect(value == .null)
            #expect(problems.isEmpty)
        }
    }

    @Test("a lone surrogate escape becomes U+FFFD and is reported as replaced")
    func loneSurrogate() throws {
        let (value, problems) = try convertValue(#""a\ud800b""#, to: .text)
        #expect(value == .text("a\u{FFFD}b"))
        #expect(problems.map(\.action) == [.replaced])
        #expect(problems.map(\.found) == [#"string "a\ud800b""#])
    }

    @Test("a reversed surrogate pair becomes two replacement characters")
    func reversedSurrogates() throws {
        let (value, _) = try convertValue(#""\ude00\ud83d""#, to: .text)
        #expect(value == .text("\u{FFFD}\u{FFFD}"))
    }
}
