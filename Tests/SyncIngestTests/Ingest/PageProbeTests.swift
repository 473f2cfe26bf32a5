import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest

/// What the fetch reads of each page for the next page's choice: all of it, checked and counted, or, when only an
/// empty page ends the walk, up to its first record.
@Suite("sync: reading a page for the next page's choice")
struct PageProbeTests {
    static func decoder() throws -> RecordDecoder {
        try makeRecordDecoder(records: "data", columns: [.init(name: "id", path: "id", type: .integer)])
    }

    /// Feeds `body` to `probe` in chunks of `size` bytes.
    static func feed(_ body: String, to probe: inout PageProbe, chunkSize size: Int) throws {
        let bytes = Array(body.utf8)
        for start in stride(from: 0, to: bytes.count, by: size) {
            try bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { try probe.feed($0) }
        }
    }

    @Test("up to its first record: what follows it is not read, in chunks of any size", arguments: [1, 7, 4096])
    func stopsAtTheFirstRecord(chunkSize: Int) throws {
        var probe = PageProbe(decoder: try Self.decoder(), firstRecordOnly: true)
        try Self.feed(#"{"data": [{"id": 1, "name": "a"}, {"id": 2, ]]]] not JSON"#, to: &probe, chunkSize: chunkSize)
        #expect(probe.sawFirstRecord)
        #expect(try probe.finish() == 1)
    }

    @Test("counted, the same page fails at the byte that breaks it")
    func countingReadsAll() throws {
        var probe = PageProbe(decoder: try Self.decoder())
        let error = #expect(throws: BodyDecodingError.self) {
            try Self.feed(#"{"data": [{"id": 1, "name": "a"}, {"id": 2, ]]]] not JSON"#, to: &probe, chunkSize: 4096)
        }
        #expect(error?.description.hasPrefix("the response is not valid JSON: at byte 44") == true)
        var whole = PageProbe(decoder: try Self.decoder())
        try Self.feed(#"{"data": [{"id": 1}, {"id": 2}, {"id": 3}], "next": null}"#, to: &whole, chunkSize: 5)
        #expect(!whole.sawFirstRecord)
        #expect(try whole.finish() == 3)
    }

    @Test("up to its first record: an empty page, one that is not JSON and one without its records still say so")
    func emptyAndBrokenPages() throws {
        var empty = PageProbe(decoder: try Self.decoder(), firstRecordOnly: true)
        try Self.feed(#"{"data": [], "more": false}"#, to: &empty, chunkSize: 3)
        #expect(!empty.sawFirstRecord)
        #expect(try empty.finish() == 0)

        var html = PageProbe(decoder: try Self.decoder(), firstRecordOnly: true)
        #expect(throws: BodyDecodingError.self) { try Self.feed("<html>", to: &html, chunkSize: 4096) }

        var elsewhere = PageProbe(decoder: try Self.decoder(), firstRecordOnly: true)
        #expect(throws: BodyDecodingError.self) {
            try Self.feed(#"{"items": [{"id": 1}]}"#, to: &elsewhere, chunkSize: 4096)
            _ = try elsewhere.finish()
        }
        #expect(!elsewhere.sawFirstRecord)

        var cut = PageProbe(decoder: try Self.decoder(), firstRecordOnly: true)
        try Self.feed(#"{"data": [{"id": 1"#, to: &cut, chunkSize: 4096)
        #expect(throws: BodyDecodingError.truncated) { _ = try cut.finish() }
    }

    @Test("reading past a failure throws nothing while the body streams in; finish() throws the failure")
    func readsPastFailure() throws {
        var probe = PageProbe(decoder: try Self.decoder(), readsPastFailure: true)
        try Self.feed(#"{"data": null, "errors": [{"message": "no"}]}"#, to: &probe, chunkSize: 4)
        #expect(throws: BodyDecodingError.self) { _ = try probe.finish() }
    }
}
