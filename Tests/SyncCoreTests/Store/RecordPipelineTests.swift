import Foundation
import NIOCore
import Testing

@testable import SyncCore

/// The second decoding pass of a sync runs on a thread of its own (RecordPipeline): what it hands over must be what
/// decoding the pages inline gives, and it must stop cleanly when the transaction ends early.
@Suite("sync: the decoding thread beside the transaction")
struct RecordPipelineTests {
    /// A spool holding one page per element of `pages`, each a JSON array of users with those ids.
    static func spool(_ pages: [[Int]], in directory: TemporaryDirectory) throws -> (BodySpool, [Range<Int>]) {
        let spool = try BodySpool(directory: directory.path)
        var ranges: [Range<Int>] = []
        for ids in pages {
            let json =
                "["
                + ids.map { #"{"id": \#($0), "name": "user \#($0)", "tags": ["a", {"b": null}]}"# }
                .joined(separator: ", ") + "]"
            let start = spool.count
            try spool.append(ByteBuffer(string: json))
            ranges.append(start..<spool.count)
        }
        return (spool, ranges)
    }

    static func decoder() throws -> RecordDecoder {
        try makeRecordDecoder(columns: [
            .init(name: "id", path: "id", type: .integer), .init(name: "name", path: "name"),
        ])
    }

    /// Every record the pipeline hands over, with its raw bytes as text.
    static func drain(_ pipeline: RecordPipeline) throws -> [SeenRecord] {
        var seen: [SeenRecord] = []
        while let batch = try pipeline.next() {
            #expect(batch.records.count <= RecordPipeline.batchSize)
            for record in batch.records {
                seen.append(
                    SeenRecord(
                        index: record.index, raw: String(decoding: batch.bytes[record.raw], as: UTF8.self),
                        values: record.values, problems: record.problems, isRejected: record.isRejected))
            }
        }
        return seen
    }

    @Test("it hands over, in order, the records and exact bytes that decoding each page inline gives")
    func sameAsInline() throws {
        let directory = try TemporaryDirectory()
        // More records than batches can hold at once, across pages, so that the thread waits for the consumer.
        let pages = [Array(1...1500), [], Array(1501...4000), [4001]]
        let (spool, ranges) = try Self.spool(pages, in: directory)
        let decoder = try Self.decoder()
        var inline: [SeenRecord] = []
        for range in ranges {
            var bytes: [UInt8] = []
            try spool.forEachChunk(in: range) { bytes.append(contentsOf: $0) }
            inline += try decoder.records(in: bytes)
        }
        let pipeline = RecordPipeline(decoder: decoder, spool: spool, pages: ranges)
        defer { pipeline.stop() }
        let handed = try Self.drain(pipeline)
        #expect(handed.count == 4001)
        #expect(handed == inline)
        #expect(try pipeline.next() == nil, "after the last batch, nil again")
    }

    @Test("stopping it while it waits for room ends the thread; the caller does not hang")
    func stopsEarly() throws {
        let directory = try TemporaryDirectory()
        let (spool, ranges) = try Self.spool([Array(1...20_000)], in: directory)
        let pipeline = RecordPipeline(decoder: try Self.decoder(), spool: spool, pages: ranges)
        let first = try #require(try pipeline.next())
        #expect(first.records.first?.values.first == .integer(1))
        // The thread is decoding ahead or waiting for room; stop() returns only once it no longer reads the spool.
        pipeline.stop()
        pipeline.stop()
    }

    @Test("a page that cannot be read back fails the consumer's next batch, with the spool's error")
    func readFailure() throws {
        let directory = try TemporaryDirectory()
        let (spool, ranges) = try Self.spool([[1, 2, 3]], in: directory)
        let beyond = ranges[0].upperBound..<(ranges[0].upperBound + 100)
        let pipeline = RecordPipeline(decoder: try Self.decoder(), spool: spool, pages: [ranges[0], beyond])
        defer { pipeline.stop() }
        var records = 0
        let error = #expect(throws: FetchError.self) {
            while let batch = try pipeline.next() { records += batch.records.count }
        }
        // The first page's records may still be in a batch the failure cut short: the transaction rolls back anyway.
        #expect(records <= 3)
        #expect(error?.description.contains("cannot read the body back") == true, "\(String(describing: error))")
    }

    @Test("a page that no longer decodes fails the consumer with the decoding error")
    func decodingFailure() throws {
        let directory = try TemporaryDirectory()
        let spool = try BodySpool(directory: directory.path)
        try spool.append(ByteBuffer(string: #"[{"id": 1, "name": "a"}, {"id": 2"#))
        let pipeline = RecordPipeline(decoder: try Self.decoder(), spool: spool, pages: [0..<spool.count])
        defer { pipeline.stop() }
        let error = #expect(throws: BodyDecodingError.self) { _ = try Self.drain(pipeline) }
        #expect(error == .truncated)
    }
}
