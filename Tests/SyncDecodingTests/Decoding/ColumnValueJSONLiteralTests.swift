import SyncTesting
import Testing

@testable import SyncCore

@Suite("Column values as JSON")
struct ColumnValueJSONLiteralTests {
    @Test(
        "each value becomes its JSON literal",
        arguments: [
            (ColumnValue.integer(8), "8"),
            (.integer(-9_223_372_036_854_775_808), "-9223372036854775808"),
            (.real(1.5), "1.5"),
            (.real(-0.25), "-0.25"),
            (.real(3), "3.0"),
            (.real(1e100), "1e+100"),
            (.real(.infinity), "null"),
            (.real(.nan), "null"),
            (.null, "null"),
            (.text("text"), #""text""#),
            (.text(""), #""""#),
            (.text("a\"b\\c/d"), #""a\"b\\c/d""#),
            (.text("\n\r\t\u{08}\u{0C}"), #""\n\r\t\b\f""#),
            (.text("\u{0}\u{1F}\u{7F}"), "\"\\u0000\\u001f\u{7F}\""),
            (.text("Zoë 😀"), #""Zoë 😀""#),
        ])
    func literal(_ value: ColumnValue, _ expected: String) {
        #expect(value.jsonLiteral == expected)
    }

    @Test("a single key is its value's literal, a composite key an array")
    func keyJSON() {
        #expect(ColumnValue.keyJSON([.integer(8)]) == "8")
        #expect(ColumnValue.keyJSON([.text("a\"b")]) == #""a\"b""#)
        #expect(ColumnValue.keyJSON([.integer(1), .text("x")]) == #"[1,"x"]"#)
        #expect(ColumnValue.keyJSON([.integer(1), .real(2.5), .null]) == "[1,2.5,null]")
        #expect(ColumnValue.keyJSON([]) == "[]")
    }

    @Test("a text literal reads back as the same text")
    func roundTrip() throws {
        let text = "quote\" backslash\\ newline\n nul\u{0} bell\u{7} é 😀"
        let (value, _) = try convertValue(ColumnValue.text(text).jsonLiteral, to: .text)
        #expect(value == .text(text))
    }
}
