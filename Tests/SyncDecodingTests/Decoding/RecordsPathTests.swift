import SyncTesting
import Testing

@testable import SyncCore

@Suite("Finding the records and their exact bytes")
struct RecordsPathTests {
    @Test("the root array holds the records when the records path is $")
    func rootArray() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "id", path: "id", type: .integer)])
        let records = try decoder.records(in: #"[{"id":1},{"id":2}]"#)
        #expect(records.map(\.values) == [[.integer(1)], [.integer(2)]])
        #expect(records.map(\.index) == [0, 1])
        #expect(records.map(\.raw) == [#"{"id":1}"#, #"{"id":2}"#])
    }

    @Test("a nested records path is followed past other keys, before and after it")
    func nestedPath() throws {
        let decoder = try makeRecordDecoder(
            records: "data.items", columns: [ColumnFixture(name: "id", path: "id", type: .integer)])
        let body = #"""
            {"meta": {"items": [{"id": 99}], "next": null},
             "data": {"count": 2, "items": [{"id": 1}, {"id": 2}], "more": [1, {"a": "b"}]},
             "tail": [true, false, null, -1.5e3]}
            """#
        let records = try decoder.records(in: body)
        #expect(records.map(\.values) == [[.integer(1)], [.integer(2)]])
    }

    @Test("an index in the records path selects one element of an array")
    func indexInPath() throws {
        let decoder = try makeRecordDecoder(records: "pages[1].rows", columns: [ColumnFixture(name: "n", path: "n")])
        let body = #"{"pages": [{"rows": [{"n": "first"}]}, {"rows": [{"n": "second"}]}, {"rows": []}]}"#
        #expect(try decoder.records(in: body).map(\.values) == [[.text("second")]])
    }

    @Test("the records path may be an index at the top level")
    func topLevelIndex() throws {
        let decoder = try makeRecordDecoder(records: "[0]", columns: [ColumnFixture(name: "n", path: "n")])
        #expect(try decoder.records(in: #"[[{"n": "a"}], [{"n": "b"}]]"#).map(\.values) == [[.text("a")]])
    }

    @Test("a key on the records path may be written with escapes in the body")
    func escapedPathKey() throws {
        let decoder = try makeRecordDecoder(records: #"["données"]"#, columns: [ColumnFixture(name: "n", path: "n")])
        #expect(try decoder.records(in: #"{"donn\u00e9es": [{"n": "x"}]}"#).map(\.values) == [[.text("x")]])
    }

    @Test("an empty records array yields nothing and counts zero")
    func emptyArray() throws {
        let decoder = try makeRecordDecoder(records: "data", columns: [ColumnFixture(name: "n", path: "n")])
        var calls = 0
        let count = try decoder.decode(Array(#"{"data": [ ]}"#.utf8)) { _ in calls += 1 }
        #expect(count == 0)
        #expect(calls == 0)
    }

    @Test("a record's raw range covers its exact bytes: whitespace, escapes and unicode kept verbatim")
    func rawBytesVerbatim() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "name", path: "name")])
        let first = "{ \"name\" : \"Zo\\u00eb \\\"Z\\\"\\n\",\n\t\"emoji\": \"😀\\ud83d\\ude00\", \"n\": 1.50E+3 }"
        let second = "{\"name\":\"Ünïcödé\"}"
        let body = "\u{FEFF}[\n  \(first) ,\r\n\(second)\n]\n"
        let bytes = Array(body.utf8)
        var ranges: [Range<Int>] = []
        let records = try decoder.records(in: bytes)
        _ = try decoder.decode(bytes) { record in ranges.append(record.raw) }
        #expect(records.map(\.raw) == [first, second])
        #expect(records.map(\.values) == [[.text("Zoë \"Z\"\n")], [.text("Ünïcödé")]])
        let firstStart = try #require(bytes.firstIndex(of: UInt8(ascii: "{")))
        #expect(ranges.first == firstStart..<(firstStart + first.utf8.count))
    }

    @Test("a byte order mark before the JSON is skipped")
    func byteOrderMark() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "n", path: "n", type: .integer)])
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"[{"n":1}]"#.utf8)
        let records = try decoder.records(in: bytes)
        #expect(records.map(\.raw) == [#"{"n":1}"#])
        var raw: Range<Int>?
        _ = try decoder.decode(bytes) { record in raw = record.raw }
        #expect(raw == 4..<11)
    }

    @Test("records are yielded one at a time, each before the next is read")
    func streaming() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "n", path: "n", type: .integer)])
        // The second record is broken: the first must already have been yielded when the error is found.
        var seen: [ColumnValue] = []
        #expect(throws: BodyDecodingError.notJSON) {
            _ = try decoder.decode(Array(#"[{"n": 1}, {"n": x}]"#.utf8)) { record in
                seen.append(contentsOf: record.values)
            }
        }
        #expect(seen == [.integer(1)])
    }

    @Test("an error thrown by the closure propagates unchanged and stops the decoding")
    func closureErrorPropagates() throws {
        struct Stop: Error, Equatable {}
        let decoder = try makeRecordDecoder(columns: [])
        var calls = 0
        #expect(throws: Stop()) {
            _ = try decoder.decode(Array("[{}, {}, {}]".utf8)) { _ in
                calls += 1
                if calls == 2 { throw Stop() }
            }
        }
        #expect(calls == 2)
    }

    @Test("a record kept by the closure is not changed by the records after it")
    func keptRecordsAreCopies() throws {
        let decoder = try makeRecordDecoder(columns: [
            ColumnFixture(name: "n", path: "n", type: .integer, required: true)
        ])
        var kept: [DecodedRecord] = []
        _ = try decoder.decode(Array(#"[{"n": 1}, {"n": "x"}, {"n": 3}]"#.utf8)) { record in kept.append(record) }
        #expect(kept.map(\.values) == [[.integer(1)], [.null], [.integer(3)]])
        #expect(kept.map(\.problems.count) == [0, 1, 0])
        #expect(kept.map(\.isRejected) == [false, true, false])
    }

    @Test("the unsafe-buffer and array entry points agree")
    func bufferEntryPoint() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "n", path: "n", type: .integer)])
        let bytes = Array(#"[{"n": 1}, {"n": 2}]"#.utf8)
        var values: [ColumnValue] = []
        let count = try bytes.withUnsafeBytes { buffer in
            try decoder.decode(buffer) { record in values += record.values }
        }
        #expect(count == 2)
        #expect(values == [.integer(1), .integer(2)])
    }
}
