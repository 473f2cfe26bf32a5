import SyncTesting
import Testing

@testable import SyncCore

@Suite("Extracting column values by path")
struct ColumnExtractionTests {
    @Test("nested keys and array indices lead to a column's value")
    func nestedPaths() throws {
        let decoder = try makeRecordDecoder(columns: [
            ColumnFixture(name: "lat", path: "address.geo.lat", type: .real),
            ColumnFixture(name: "city", path: "address.city"),
            ColumnFixture(name: "first_tag", path: "tags[0]"),
            ColumnFixture(name: "third_tag", path: "tags[2]"),
            ColumnFixture(name: "deep", path: "a[1][0].b"),
        ])
        let body = #"""
            [{"tags": ["x", "y", "z"], "address": {"geo": {"lng": 2, "lat": "-37.3159"}, "city": "Gwenborough"},
              "a": [0, [{"b": "found"}, {"b": "not me"}]]}]
            """#
        let record = try #require(try decoder.records(in: body).first)
        #expect(record.values == [.real(-37.3159), .text("Gwenborough"), .text("x"), .text("z"), .text("found")])
        #expect(record.problems.isEmpty)
    }

    @Test("columns are returned in column order whatever the order of keys in the record")
    func columnOrder() throws {
        let decoder = try makeRecordDecoder(columns: [
            ColumnFixture(name: "b", path: "b"), ColumnFixture(name: "a", path: "a"),
            ColumnFixture(name: "c", path: "c"),
        ])
        let record = try #require(try decoder.records(in: #"[{"c": "3", "a": "1", "b": "2"}]"#).first)
        #expect(record.values == [.text("2"), .text("1"), .text("3")])
    }

    @Test("a key that occurs twice in one object takes its last value")
    func duplicateKeyLastWins() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "n", path: "n", type: .integer)])
        let record = try #require(try decoder.records(in: #"[{"n": 1, "x": 0, "n": 2}]"#).first)
        #expect(record.values == [.integer(2)])
    }

    @Test("a repeated parent key replaces everything the earlier one held")
    func duplicateParentKey() throws {
        let decoder = try makeRecordDecoder(columns: [
            ColumnFixture(name: "b", path: "a.b"), ColumnFixture(name: "c", path: "a.c"),
            ColumnFixture(name: "a", path: "a", type: .json),
        ])
        let record = try #require(
            try decoder.records(in: #"[{"a": {"b": "old", "c": "old"}, "a": {"c": "new"}}]"#).first)
        #expect(record.values == [.null, .text("new"), .text(#"{"c": "new"}"#)])
    }

    @Test("a repeated parent key that is no longer an object leaves its nested columns missing")
    func duplicateParentBecomesScalar() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "b", path: "a.b")])
        let record = try #require(try decoder.records(in: #"[{"a": {"b": "old"}, "a": 5}]"#).first)
        #expect(record.values == [.null])
    }

    @Test("a key written with escapes matches the configured key")
    func escapedKeys() throws {
        let decoder = try makeRecordDecoder(columns: [
            ColumnFixture(name: "e", path: #"["é"]"#), ColumnFixture(name: "s", path: #"["a/b"]"#),
        ])
        let record = try #require(try decoder.records(in: #"[{"\u00e9": "accent", "a\/b": "slash"}]"#).first)
        #expect(record.values == [.text("accent"), .text("slash")])
    }

    @Test("keys are compared exactly: case and prefixes do not match")
    func exactKeyComparison() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "name", path: "name")])
        let record = try #require(try decoder.records(in: #"[{"Name": "a", "nam": "b", "names": "c"}]"#).first)
        #expect(record.values == [.null])
    }

    @Test("two columns may read the same path")
    func samePathTwice() throws {
        let decoder = try makeRecordDecoder(columns: [
            ColumnFixture(name: "as_text", path: "n"), ColumnFixture(name: "as_int", path: "n", type: .integer),
        ])
        let record = try #require(try decoder.records(in: #"[{"n": 12}]"#).first)
        #expect(record.values == [.text("12"), .integer(12)])
    }

    @Test("a column at $ holds the whole record, and a parent and its child can both be columns")
    func rootAndParentColumns() throws {
        let decoder = try makeRecordDecoder(columns: [
            ColumnFixture(name: "all", path: "$", type: .json),
            ColumnFixture(name: "geo", path: "geo", type: .json),
            ColumnFixture(name: "lat", path: "geo.lat", type: .real),
        ])
        let record = try #require(try decoder.records(in: #"[ {"geo": { "lat" : 1.5 } } ]"#).first)
        #expect(record.values == [.text(#"{"geo": { "lat" : 1.5 } }"#), .text(#"{ "lat" : 1.5 }"#), .real(1.5)])
    }

    @Test("a path through a value of another kind finds nothing")
    func pathThroughScalar() throws {
        let decoder = try makeRecordDecoder(columns: [
            ColumnFixture(name: "a", path: "a.b"), ColumnFixture(name: "i", path: "list[5]"),
            ColumnFixture(name: "k", path: "list.k"),
        ])
        let record = try #require(try decoder.records(in: #"[{"a": "text", "list": [1, 2]}]"#).first)
        #expect(record.values == [.null, .null, .null])
        #expect(record.problems.isEmpty)
    }

    @Test("values outside the configured paths are skipped but their syntax is still checked")
    func skippedValuesAreValidated() throws {
        let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "id", path: "id", type: .integer)])
        #expect(decoder.bodyError(#"[{"id": 1, "other": {"deep": [1, 2, tru]}}]"#) == .notJSON)
        #expect(decoder.bodyError(#"[{"id": 1, "other": "bad \x escape"}]"#) == .notJSON)
    }
}
