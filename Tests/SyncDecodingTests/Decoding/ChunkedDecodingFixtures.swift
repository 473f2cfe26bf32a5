import SyncTesting
import Testing

@testable import SyncCore

/// Bodies for comparing ``ChunkedRecordDecoder`` with ``RecordDecoder/decode(_:_:)``: each a records path and a
/// valid body of some shape, from which the tests derive broken ones.
struct ChunkedFixture: CustomStringConvertible, Sendable {
    var name: String
    var recordsPath: String
    var body: [UInt8]

    var description: String { name }

    /// Columns that reach into every corner: nested keys, an index, each type, the key.
    func makeDecoder(recordsPath: String? = nil) throws -> RecordDecoder {
        try makeRecordDecoder(
            records: recordsPath ?? self.recordsPath,
            columns: [
                ColumnFixture(name: "id", path: "id", type: .integer),
                ColumnFixture(name: "name", path: "name"),
                ColumnFixture(name: "lat", path: "geo.lat", type: .real),
                ColumnFixture(name: "at", path: "at", type: .timestamp),
                ColumnFixture(name: "second", path: "tags[1]"),
                ColumnFixture(name: "flag", path: "flag", type: .boolean),
                ColumnFixture(name: "doc", path: "doc", type: .json),
            ],
            keyColumns: [0]
        )
    }

    static let all: [ChunkedFixture] = [
        ChunkedFixture(
            name: "nested records path with metadata around it",
            recordsPath: "data.items",
            body: Array(
                #"""
                {"meta": {"page": 1, "tags": ["a", "b\"c", "\u00e9\ud83d\ude00"], "ok": true, "none": null,
                  "n": [-0, 0.5, -1.25e-3, 1E+2, 12e0]}, "items": "decoy",
                 "data": {"count": 4, "items": [
                   {"id": 1, "name": "Zoë \u00e9\ud83d\ude00 😀", "geo": {"lat": "-37.3159", "lng": 81.1496},
                    "at": "2024-05-01T12:00:00.5+02:00", "tags": ["x", "y\ty"], "flag": true, "doc": {"k": [1, {}]}},
                   {"id": 2, "name": "tab\tand\\slash\/", "geo": {"lat": 1e2}, "at": 1714564800, "flag": "no"},
                   "not an object",
                   {"id": 4, "name": null, "id": 5, "geo": {"lat": 1}, "geo": {"lng": 2}},
                   {"id": 6, "name": "\u0000\u001f", "tags": [[], {"a": [true, false, null]}, "z"]}
                 ], "total": 5, "more": [1, {"a": "b"}, [], {}]}, "tail": [true, false, null, -1.5e3]}
                """#.utf8)
        ),
        ChunkedFixture(
            name: "root array, pretty-printed with CRLF and a byte order mark",
            recordsPath: "$",
            body: [0xEF, 0xBB, 0xBF]
                + Array(
                    ("[\r\n  {\r\n    \"id\": 10,\r\n    \"name\": \"Leanne Graham\",\r\n    \"geo\": {\r\n"
                        + "      \"lat\": \"-37.3159\",\r\n      \"lng\": \"81.1496\"\r\n    }\r\n  },\r\n"
                        + "  {\r\n    \"id\": 11,\r\n    \"name\": \"Ervin Howell\",\r\n    \"flag\": 1\r\n  }\r\n]\r\n")
                        .utf8)
        ),
        ChunkedFixture(
            name: "records that are numbers, literals, strings, arrays and objects",
            recordsPath: "$",
            body: Array(
                #"[1,-2.5e3,0,0.0,-0,123456789012345678901234567890,"x",true,false,null,[1,[2]],{"id":3},{},[],7]"#
                    .utf8)
        ),
        ChunkedFixture(
            name: "an index in the records path",
            recordsPath: "pages[1].rows",
            body: Array(
                #"{"pages": [{"rows": [{"id": 1}]}, {"x": {"rows": 1}, "rows": [{"id": 2, "name": "b"}, {"id": 3}]}, 9]}"#
                    .utf8)
        ),
        ChunkedFixture(
            name: "a records key written with escapes, next to keys that almost match",
            recordsPath: #"["données"]"#,
            body: Array(
                #"{"donnee": [{"id": 0}], "donn\u00e9es\u0000": 1, "données2": [], "donn\u00e9es": [{"id": 1}], "x": "données"}"#
                    .utf8)
        ),
        ChunkedFixture(
            name: "the records path an index at the top level",
            recordsPath: "[0]",
            body: Array(#"  [ [ {"id": 1, "name": "a"} , {"id": 2} ] , [ {"id": 3} ] , 4 ]  "#.utf8)
        ),
        ChunkedFixture(
            name: "deep nesting inside records and around them",
            recordsPath: "data",
            body: Array(
                (#"{"x": "# + String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
                    + #", "data": [{"id": 1, "doc": "#
                    + String(repeating: #"{"a": ["#, count: 30) + "0" + String(repeating: "]}", count: 30)
                    + #"}, {"id": 2}]}"#).utf8)
        ),
        ChunkedFixture(
            name: "long strings and keys that span small chunks",
            recordsPath: "items",
            body: Array(
                (#"{""#
                    + String(repeating: "k", count: 40) + #"": ""# + String(repeating: "v\\n", count: 40)
                    + #"", "items": [{"id": 1, "name": ""# + String(repeating: "ab\u{e9}\u{1F600}", count: 20)
                    + #""}]}"#).utf8)
        ),
    ]
}

/// Ways to break a body.
enum BodyDamage {
    static let garbage: [[UInt8]] = [
        Array("x".utf8), Array("}".utf8), Array("]".utf8), Array(",".utf8), Array(":".utf8), Array("\"".utf8),
        Array("\\".utf8), [0x00], [0xFF], [0xC3], Array("0".utf8), Array(" ".utf8), Array("é".utf8),
        Array("\u{FFFF}".utf8), Array("[".utf8), Array("{".utf8), Array("-".utf8), Array("e".utf8), [0x0A],
        Array("😀".utf8), [0xF0, 0x9F], Array("\\u".utf8),
    ]

    /// The body cut after each of its bytes, the empty body included.
    static func prefixes(_ body: [UInt8]) -> [[UInt8]] {
        (0..<body.count).map { Array(body[..<$0]) }
    }

    /// The body with garbage inserted before each byte, a different garbage at each offset.
    static func insertions(_ body: [UInt8]) -> [[UInt8]] {
        (0..<body.count).map { offset in
            Array(body[..<offset]) + garbage[offset % garbage.count] + Array(body[offset...])
        }
    }

    /// The body with each byte replaced by garbage.
    static func replacements(_ body: [UInt8]) -> [[UInt8]] {
        (0..<body.count).map { offset in
            Array(body[..<offset]) + garbage[(offset * 7 + 3) % garbage.count] + Array(body[(offset + 1)...])
        }
    }
}
