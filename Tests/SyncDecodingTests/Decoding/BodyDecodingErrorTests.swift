import SyncTesting
import Testing

@testable import SyncCore

@Suite("Bodies that cannot be used")
struct BodyDecodingErrorTests {
    let rootDecoder: RecordDecoder
    let itemsDecoder: RecordDecoder

    init() throws {
        rootDecoder = try makeRecordDecoder(columns: [ColumnFixture(name: "a", path: "a")])
        itemsDecoder = try makeRecordDecoder(records: "data.items", columns: [ColumnFixture(name: "a", path: "a")])
    }

    @Test(
        "a syntax error names the byte, line and column, what was expected and what was found",
        arguments: [
            ("[1, x]", "at byte 4 (line 1, column 5) expected a value, found \"x\""),
            ("[\n  {\"a\": 1},\n  {\"a\" 2}\n]", "at byte 21 (line 3, column 8) expected \":\", found \"2\""),
            ("[{\"é\": 1} 2]", "at byte 11 (line 1, column 11) expected \",\" or \"]\", found \"2\""),
            ("[{\"a\": 1 \"b\"}]", "at byte 9 (line 1, column 10) expected \",\" or \"}\", found \"\\\"\""),
            ("[{1: 2}]", "at byte 2 (line 1, column 3) expected a string key, found \"1\""),
            ("[{\"a\": 1,}]", "at byte 9 (line 1, column 10) expected a string key, found \"}\""),
            ("[1,]", "at byte 3 (line 1, column 4) expected a value, found \"]\""),
            ("[nul]", "at byte 4 (line 1, column 5) expected the literal null, found \"]\""),
            ("[True]", "at byte 1 (line 1, column 2) expected a value, found \"T\""),
            ("[-]", "at byte 2 (line 1, column 3) expected a digit, found \"]\""),
            ("[1.]", "at byte 3 (line 1, column 4) expected a digit, found \"]\""),
            ("[1e]", "at byte 3 (line 1, column 4) expected a digit, found \"]\""),
            ("[.5]", "at byte 1 (line 1, column 2) expected a value, found \".\""),
            ("[+1]", "at byte 1 (line 1, column 2) expected a value, found \"+\""),
            ("[01]", "at byte 1 (line 1, column 2) a number starts with a superfluous 0"),
            ("[\"a\\x\"]", "at byte 3 (line 1, column 4) a string has an invalid escape"),
            ("[\"\\u12G4\"]", "at byte 2 (line 1, column 3) a string has an invalid escape"),
            ("[\"a\nb\"]", "at byte 3 (line 1, column 4) a string holds byte 0x0A, which must be escaped"),
            ("['a']", "at byte 1 (line 1, column 2) expected a value, found \"'\""),
            ("[é]", "at byte 1 (line 1, column 2) expected a value, found \"é\""),
            ("[1 2]", "at byte 3 (line 1, column 4) expected \",\" or \"]\", found \"2\""),
        ])
    func syntaxErrors(_ body: String, _ detail: String) throws {
        let error = try #require(rootDecoder.bodyError(body))
        #expect(error == .notJSON)
        #expect(error.description == "the response is not valid JSON: " + detail)
    }

    @Test(
        "bytes that are not UTF-8 inside a string are refused",
        arguments: [
            [0xFF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82], [0xC3, 0x41],
        ] as [[UInt8]])
    func invalidUTF8(_ bytes: [UInt8]) throws {
        let body: [UInt8] = Array("[\"a".utf8) + bytes + Array("\"]".utf8)
        let error = try #require(rootDecoder.bodyError(body))
        #expect(error == .notJSON)
        let hex = String(bytes[0], radix: 16, uppercase: true)
        #expect(
            error.description
                == "the response is not valid JSON: at byte 3 (line 1, column 4) a string holds byte 0x\(hex), "
                + "which is not UTF-8"
        )
    }

    @Test("valid UTF-8 of every length is accepted, at the edges of its ranges")
    func validUTF8() throws {
        let text = "\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}"
        let records = try rootDecoder.records(in: "[{\"a\": \"\(text)\"}]")
        #expect(records.map(\.values) == [[.text(text)]])
    }

    @Test("an empty body is not JSON", arguments: ["", "  \n\t", "\u{FEFF}", "\u{FEFF} "])
    func emptyBody(_ body: String) throws {
        let error = try #require(rootDecoder.bodyError(body))
        #expect(error == .notJSON)
        #expect(error.description == "the response is not valid JSON: it is empty")
    }

    @Test(
        "a body that ends early says what it ends inside",
        arguments: [
            (#"[{"a": 1}"#, "an array at byte 9"),
            (#"[{"a": "#, "an object at byte 7"),
            (#"[{"a""#, "an object at byte 5"),
            (#"[{"a": "xy"#, "a string at byte 10"),
            (#"[{"a": "x\"#, "a string at byte 10"),
            (#"[{"a": "\u00"#, "a string at byte 12"),
            ("[1.", "a number at byte 3"),
            ("[-", "a number at byte 2"),
            ("[1e+", "a number at byte 4"),
            ("[tr", "a literal (true, false or null) at byte 3"),
            ("[", "an array at byte 1"),
            (#"{"data": {"items": [{"a": 1}, "#, "an array at byte 30"),
        ])
    func truncated(_ body: String, _ detail: String) throws {
        let decoder = body.hasPrefix("{") ? itemsDecoder : rootDecoder
        let error = try #require(decoder.bodyError(body))
        #expect(error == .truncated)
        #expect(error.description == "the response is truncated: it ends inside " + detail)
    }

    @Test("a body cut at any byte never traps, and yields the same leading records before it throws")
    func everyCutPoint() throws {
        let decoder = try makeRecordDecoder(
            records: "data.items",
            columns: [
                ColumnFixture(name: "id", path: "id", type: .integer),
                ColumnFixture(name: "name", path: "name"),
                ColumnFixture(name: "lat", path: "geo.lat", type: .real),
                ColumnFixture(name: "at", path: "at", type: .timestamp),
            ],
            keyColumns: [0]
        )
        let body = Array(
            #"""
            {"meta": {"page": 1, "tags": ["a", "b\"c"], "ok": true, "none": null},
             "data": {"items": [
               {"id": 1, "name": "Zoë \u00e9\ud83d\ude00 😀", "geo": {"lat": "-37.3159", "lng": 81.1496},
                "at": "2024-05-01T12:00:00.5+02:00", "n": [-0.5e-3, 0, 12, false]},
               {"id": 2, "name": "tab\tand\\slash\/", "geo": {"lat": 1e2}, "at": 1714564800},
               "not an object",
               {"id": 4, "name": null}
             ], "total": 4}}
            """#.utf8)
        let full = try decoder.records(in: body)
        #expect(full.count == 4)
        for cut in 0..<body.count {
            var yielded: [SeenRecord] = []
            let prefix = Array(body[..<cut])
            do {
                _ = try decoder.decode(prefix) { record in
                    yielded.append(
                        SeenRecord(
                            index: record.index,
                            raw: String(decoding: prefix[record.raw], as: UTF8.self),
                            values: record.values,
                            problems: record.problems,
                            isRejected: record.isRejected
                        )
                    )
                }
                Issue.record("a body cut at \(cut) of \(body.count) bytes decoded")
            } catch let error as BodyDecodingError {
                #expect(error == (cut == 0 ? .notJSON : .truncated), "cut at \(cut): \(error)")
            }
            #expect(yielded == Array(full.prefix(yielded.count)), "cut at \(cut)")
        }
    }

    @Test(
        "a records path that leads nowhere says where it ends",
        arguments: [
            ("data.items", #"{"data": {"total": 0}}"#, #"the path ends at "data", which has no key "items""#),
            ("data.items", #"{"other": 1}"#, #"the top-level value has no key "data""#),
            ("data.items", #"{"data": [1]}"#, #"the path ends at "data", which is an array, not an object"#),
            ("data.items", #"{"data": null}"#, #"the path ends at "data", which is null, not an object"#),
            ("data.items", "[]", "the top-level value is an array, not an object"),
            ("data.items", #""text""#, "the top-level value is a string, not an object"),
            ("pages[2]", #"{"pages": [1, 2]}"#, #"the path ends at "pages", which has only 2 elements"#),
            ("pages[1]", #"{"pages": [1]}"#, #"the path ends at "pages", which has only 1 element"#),
            ("pages[0]", #"{"pages": []}"#, #"the path ends at "pages", which is an empty array"#),
            ("pages[0]", #"{"pages": {}}"#, #"the path ends at "pages", which is an object, not an array"#),
        ])
    func recordsPathMissing(_ path: String, _ body: String, _ detail: String) throws {
        let decoder = try makeRecordDecoder(records: path, columns: [])
        let error = try #require(decoder.bodyError(body))
        #expect(error == .recordsPathMissing)
        #expect(error.description == "the response has no \"\(path)\": \(detail)")
    }

    @Test(
        "records that are not an array are refused",
        arguments: [
            ("data", #"{"data": {"id": 1}}"#, #""data" in the response is an object, not an array of records"#),
            ("data", #"{"data": null}"#, #""data" in the response is null, not an array of records"#),
            ("data", #"{"data": 12}"#, #""data" in the response is a number, not an array of records"#),
            ("data", #"{"data": false}"#, #""data" in the response is a boolean, not an array of records"#),
            ("$", #"{"id": 1}"#, "the response is an object, not an array of records"),
            ("$", #""[]""#, "the response is a string, not an array of records"),
        ])
    func recordsNotArray(_ path: String, _ body: String, _ description: String) throws {
        let decoder = try makeRecordDecoder(records: path, columns: [])
        let error = try #require(decoder.bodyError(body))
        #expect(error == .recordsNotArray)
        #expect(error.description == description)
    }

    @Test("a records key that occurs twice is ambiguous")
    func repeatedRecordsKey() throws {
        let decoder = try makeRecordDecoder(records: "data", columns: [])
        let error = try #require(decoder.bodyError(#"{"data": [], "x": 1, "data": [{}]}"#))
        #expect(error == .recordsPathRepeated)
        #expect(error.description == #"the response has "data" more than once, so which records to use is ambiguous"#)
    }

    @Test(
        "data after the JSON value is refused",
        arguments: [
            ("[] x", 3, 4), ("[][]", 2, 3), ("[]\n\n  ]", 6, 3), ("[] \u{0}", 3, 4),
        ])
    func trailingData(_ body: String, _ offset: Int, _ column: Int) throws {
        let error = try #require(rootDecoder.bodyError(body))
        #expect(error == .trailingData)
        let line = body.filter { $0 == "\n" }.count + 1
        #expect(
            error.description
                == "the response has trailing data after the JSON value "
                + "at byte \(offset) (line \(line), column \(column))"
        )
    }

    @Test("trailing whitespace is fine")
    func trailingWhitespace() throws {
        #expect(rootDecoder.bodyError("[ ] \r\n\t ") == nil)
    }

    @Test(
        "nesting is followed to 512 levels and refused beyond, wherever it is",
        arguments: [
            ("", ""), (#"{"data": "#, "}"), (#"[{"a": "#, "}]"), (#"[{"x": "#, "}]"),
        ])
    func depthLimit(_ prefix: String, _ suffix: String) throws {
        let decoder = try makeRecordDecoder(
            records: prefix.hasPrefix("{") ? "data" : "$", columns: [ColumnFixture(name: "a", path: "a[0][0]")])
        let opened = prefix.filter { $0 == "[" || $0 == "{" }.count
        func body(depth: Int) -> String {
            prefix + String(repeating: "[", count: depth - opened) + String(repeating: "]", count: depth - opened)
                + suffix
        }
        #expect(decoder.bodyError(body(depth: 512)) == nil)
        let error = try #require(decoder.bodyError(body(depth: 513)))
        #expect(error == .tooDeep)
        let offset = prefix.utf8.count + 512 - opened
        #expect(
            error.description
                == "the response nests arrays and objects more than 512 deep "
                + "at byte \(offset) (line 1, column \(offset + 1))"
        )
        #expect(decoder.bodyError(body(depth: 100_000)) == .tooDeep)
    }

    @Test("errors compare by code only, and each code has a fixed short name")
    func equality() throws {
        let truncated = try #require(rootDecoder.bodyError("[1,"))
        #expect(truncated == .truncated)
        #expect(truncated != .notJSON)
        #expect(truncated.hashValue == BodyDecodingError.truncated.hashValue)
        #expect(truncated.shortDescription == "truncated")
        #expect(BodyDecodingError.notJSON.shortDescription == "not_json")
        #expect(BodyDecodingError.recordsPathMissing.shortDescription == "records_path_missing")
    }
}
