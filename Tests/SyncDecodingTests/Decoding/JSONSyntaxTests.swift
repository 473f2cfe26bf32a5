import SyncTesting
import Testing

@testable import SyncCore

@Suite("Checking JSON syntax (RFC 8259)")
struct JSONSyntaxTests {
    static let valid = [
        "0", "-0", "1", "-1", "123", "0.5", "-0.5", "1e5", "1E5", "1e+5", "1e-5", "1.5E-05", "-12.34e+56",
        "true", "false", "null", #""""#, #""a""#, #""\"\\\/\b\f\n\r\t""#, #""\u0000\uFFFF\uabcd""#,
        #""\ud83d\ude00""#, #""\ud800""#, "\"\u{7F}\"", "[]", "[ ]", "{}", "{ }", "[1,2]", "[ 1 , 2 ]",
        #"{"a":1,"b":[{}]}"#, "\t[\r\n1\n]\t", #"{"":""}"#, #"{"a":1,"a":2}"#, "[[[[[]]]]]",
    ]

    static let invalid = [
        "[", "]", "{", "}", "[1,]", "[,1]", "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{a:1}", "{'a':1}",
        "{\"a\":1,}", "{,}", "01", "-01", "1.", ".1", "1e", "1e+", "+1", "--1", "0x10", "NaN", "Infinity",
        "tru", "True", "nul", "nulll", "\"a", "\"\\\"", "\"\\a\"", "\"\\u12\"", "\"\\u12g4\"", "\"\t\"",
        "\"\n\"", "\"\u{1F}\"", "[1]]", "[1][", "\u{0}", "/* comment */ 1", "[1] // comment",
        "\u{A0}1", "\u{2028}1",
    ]

    @Test("valid JSON is accepted anywhere in a body", arguments: valid)
    func acceptsValid(_ json: String) throws {
        let decoder = try makeRecordDecoder(records: "r", columns: [ColumnFixture(name: "v", path: "v", type: .json)])
        let records = try decoder.records(in: #"{"before": \#(json), "r": [{"v": \#(json)}], "after": [\#(json)]}"#)
        #expect(records.map(\.values) == [[json == "null" ? .null : .text(json.trimmingWhitespace)]])
    }

    @Test("invalid JSON is refused, wherever it is", arguments: invalid)
    func refusesInvalid(_ json: String) throws {
        let decoder = try makeRecordDecoder(records: "r", columns: [ColumnFixture(name: "v", path: "v", type: .json)])
        for body in [json, #"{"r": [{"v": \#(json)}]}"#, #"{"r": [{"x": \#(json)}]}"#, #"{"x": \#(json), "r": []}"#] {
            let error = decoder.bodyError(body)
            #expect(error != nil, "\(body)")
        }
    }

    @Test("random corruptions of a body never trap: each decodes or throws a body error")
    func corruptions() throws {
        let decoder = try makeRecordDecoder(
            records: "data",
            columns: [
                ColumnFixture(name: "id", path: "id", type: .integer),
                ColumnFixture(name: "t", path: "t", type: .timestamp),
                ColumnFixture(name: "r", path: "a[1].r", type: .real),
                ColumnFixture(name: "j", path: "a", type: .json),
            ],
            keyColumns: [0]
        )
        let body = Array(
            #"""
            {"data": [{"id": 1, "t": "2024-05-01T12:00:00+02:00", "a": [0, {"r": "1.5"}], "s": "Zoë \u00e9\n"},
                      {"id": 2, "t": 1714564800, "a": [null, {"r": -2e-3}], "s": "😀"}], "next": null}
            """#.utf8)
        var generator = SystemRandomNumberGenerator()
        let interesting: [UInt8] = Array(#"{}[]",:\"-.0123456789eEtfnu "#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xED, 0xFF]
        for _ in 0..<3000 {
            var corrupted = body
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<corrupted.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: corrupted[position] = interesting.randomElement(using: &generator) ?? 0
                case 1: corrupted.remove(at: position)
                default: corrupted.insert(interesting.randomElement(using: &generator) ?? 0, at: position)
                }
            }
            do {
                _ = try decoder.decode(corrupted) { record in
                    #expect(record.raw.lowerBound >= 0 && record.raw.upperBound <= corrupted.count)
                    #expect(record.values.count == 4)
                }
            } catch {
                #expect(error is BodyDecodingError, "\(String(decoding: corrupted, as: UTF8.self))")
            }
            _ = corrupted.withUnsafeBytes { decoder.decodeRecord($0, index: 0) }
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let whitespace: Set<Character> = [" ", "\t", "\r\n", "\n", "\r"]
        return String(drop(while: whitespace.contains).reversed().drop(while: whitespace.contains).reversed())
    }
}
