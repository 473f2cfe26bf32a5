import SyncTesting
import Testing

@testable import SyncCore

@Suite("Decoding one stored record")
struct DecodeRecordTests {
    let decoder: RecordDecoder

    init() throws {
        decoder = try makeRecordDecoder(
            columns: [
                ColumnFixture(name: "id", path: "id", type: .integer),
                ColumnFixture(name: "city", path: "address.city"),
                ColumnFixture(name: "lat", path: "address.geo.lat", type: .real),
            ],
            keyColumns: [0]
        )
    }

    @Test("a stored record gives the same values as the body it came from")
    func sameAsInBody() throws {
        let stored = #"{"id": 8, "address": {"city": "Gwenborough", "geo": {"lat": "-37.3159"}}}"#
        let fromBody = try #require(try decoder.records(in: "[\(stored)]").first)
        let record = decoder.record(stored, index: 5)
        #expect(record.values == fromBody.values)
        #expect(record.values == [.integer(8), .text("Gwenborough"), .real(-37.3159)])
        #expect(record.index == 5)
        #expect(record.raw == 0..<stored.utf8.count)
        #expect(!record.isRejected)
        #expect(record.problems.isEmpty)
    }

    @Test("whitespace around a stored record is left out of its raw range")
    func surroundingWhitespace() {
        let record = decoder.record("\n  {\"id\": 1} \n")
        #expect(record.raw == 3..<12)
        #expect(record.values == [.integer(1), .null, .null])
    }

    @Test("problems in a stored record are reported with its index and key")
    func problems() {
        let record = decoder.record(#"{"id": 8, "address": {"geo": {"lat": "tall"}}}"#, index: 3)
        #expect(
            record.problems.map { $0.summary(endpoint: "users") } == [
                #"users[id=8] > address.geo.lat (real): found string "tall""#
            ])
        #expect(record.problems.first?.recordIndex == 3)
    }

    @Test(
        "malformed stored JSON gives a rejected record, never a throw",
        arguments: [
            "", "   ", "{", #"{"id": 1"#, #"{"id": 1} x"#, #"{"id": 01}"#, "[1,]", "nul", "{\"id\": \"\u{1}\"}",
        ])
    func malformed(_ json: String) {
        let record = decoder.record(json, index: 2)
        #expect(record.isRejected)
        #expect(record.values == [.null, .null, .null])
        #expect(
            record.problems == [
                DecodingProblem(
                    recordIndex: 2,
                    recordKey: nil,
                    recordLabel: "#2",
                    path: "$",
                    column: nil,
                    expected: "object",
                    found: "invalid JSON",
                    action: .rejected
                )
            ])
    }

    @Test("a stored value that is not an object is rejected at $")
    func notAnObject() {
        let record = decoder.record("[1, 2]")
        #expect(record.isRejected)
        #expect(record.problems.map(\.description) == ["[#0] > $ (object): found array"])
    }

    @Test("a stored record cut at any byte is rejected and never traps")
    func everyCutPoint() {
        let stored = Array(#"{"id": 8, "address": {"city": "Zoë \u00e9", "geo": {"lat": -1.5e-3}}, "x": [true]}"#.utf8)
        for cut in 0..<stored.count {
            let record = Array(stored[..<cut]).withUnsafeBytes { decoder.decodeRecord($0, index: 0) }
            #expect(record.isRejected, "cut at \(cut)")
        }
        let whole = stored.withUnsafeBytes { decoder.decodeRecord($0, index: 0) }
        #expect(!whole.isRejected)
    }
}
