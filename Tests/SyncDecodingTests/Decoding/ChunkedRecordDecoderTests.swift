import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSupport

@Suite("Decoding a body as it arrives")
struct ChunkedRecordDecoderTests {
    let decoder: RecordDecoder

    init() throws {
        decoder = try makeRecordDecoder(
            records: "data",
            columns: [
                ColumnFixture(name: "id", path: "id", type: .integer),
                ColumnFixture(name: "city", path: "address.city"),
                ColumnFixture(name: "lat", path: "address.geo.lat", type: .real),
            ],
            keyColumns: [0]
        )
    }

    @Test("a record inside a chunk is read in place; one across chunks comes whole from the decoder's buffer")
    func recordBytes() throws {
        let first = #"{"id": 1, "address": {"city": "Gwenborough"}}"#
        let second = #"{"id": 2, "address": {"geo": {"lat": "-37.3159"}}}"#
        let body = Array(#"{"data": [\#(first), \#(second)]}"#.utf8)
        let cut = body.count - 20
        var chunked = ChunkedRecordDecoder(decoder)
        var seen: [(raw: String, inChunk: Bool, range: Range<Int>)] = []
        for chunk in [Array(body[..<cut]), Array(body[cut...])] {
            try chunk.withUnsafeBytes { buffer in
                try chunked.feed(buffer) { record, recordBytes in
                    seen.append(
                        (
                            String(decoding: recordBytes[record.raw], as: UTF8.self),
                            recordBytes.baseAddress == buffer.baseAddress, record.raw
                        ))
                }
            }
        }
        #expect(try chunked.finish() == 2)
        #expect(seen.map(\.raw) == [first, second])
        #expect(seen.map(\.inChunk) == [true, false])
        #expect(seen.first?.range == 10..<(10 + first.utf8.count))
        #expect(seen.last?.range == 0..<second.utf8.count)
    }

    @Test("an error thrown by the closure comes out unchanged, and again from every later call")
    func closureErrors() throws {
        struct Refused: Error, Equatable {}
        var chunked = ChunkedRecordDecoder(decoder)
        let body = Array(#"{"data": [{"id": 1}, {"id": 2}]}"#.utf8)
        var calls = 0
        #expect(throws: Refused()) {
            try body.withUnsafeBytes { buffer in
                try chunked.feed(buffer) { _, _ in
                    calls += 1
                    throw Refused()
                }
            }
        }
        #expect(calls == 1)
        #expect(throws: Refused()) { try chunked.feed(UnsafeRawBufferPointer(start: nil, count: 0)) { _, _ in } }
        #expect(throws: Refused()) { try chunked.finish() }
    }

    @Test("a syntax error on a character cut by the chunk's end is thrown once the character has arrived")
    func cutCharacter() throws {
        var chunked = ChunkedRecordDecoder(decoder)
        let chunks: [[UInt8]] = [Array(#"{"data": ["#.utf8) + [0xC3], [0xA9, 0x5D, 0x7D]]
        try chunks[0].withUnsafeBytes { buffer in try chunked.feed(buffer) { _, _ in } }
        let error = try #require(throws: BodyDecodingError.self) {
            try chunks[1].withUnsafeBytes { buffer in try chunked.feed(buffer) { _, _ in } }
        }
        #expect(error == .notJSON)
        #expect(
            error.description
                == #"the response is not valid JSON: at byte 10 (line 1, column 11) expected a value, found "é""#
        )
        #expect(throws: BodyDecodingError.notJSON) { try chunked.finish() }
    }

    @Test("the one documented difference: a bare number last in a truncated body is not yielded")
    func numberAtTruncatedEnd() throws {
        let body = Array(#"{"data": [{"id": 1}, 2"#.utf8)
        let whole = decoder.wholeOutcome(body)
        let chunked = decoder.chunkedOutcome(body, .whole)
        #expect(whole.records.map(\.raw) == [#"{"id": 1}"#, "2"])
        #expect(chunked.records.map(\.raw) == [#"{"id": 1}"#])
        #expect(chunked.end == whole.end)
        #expect(chunked.end.isFailure)
    }

    @Test("fed in 16 KiB chunks, 20,000 records keep at most twice the largest record buffered")
    func memoryBound() throws {
        let (body, largestRecord) = Self.makeUsers(count: 20_000)
        var chunked = ChunkedRecordDecoder(decoder)
        var largestBuffer = 0
        var count = 0
        var spanning = 0
        try body.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 16_384) {
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 16_384, bytes.count)])
                try chunked.feed(chunk) { record, recordBytes in
                    count += 1
                    if recordBytes.baseAddress != chunk.baseAddress { spanning += 1 }
                }
                largestBuffer = max(largestBuffer, chunked.bufferedByteCount)
            }
        }
        #expect(try chunked.finish() == 20_000)
        #expect(count == 20_000)
        #expect(spanning > 0 && spanning <= body.count / 16_384)
        #expect(largestBuffer > 0)
        #expect(largestBuffer <= 2 * largestRecord)
        #expect(decoder.chunkedOutcome(body, .fixed(16_384)) == decoder.wholeOutcome(body))
    }

    @Test("long values outside the records are checked but never kept")
    func longSkeleton() throws {
        let numbers = (0..<200_000).map(String.init).joined(separator: ",")
        let text = String(repeating: "long text \\u00e9 ", count: 100_000)
        let body = Array(
            #"{"meta": {"text": "\#(text)", "numbers": [\#(numbers)]}, "data": [{"id": 1}], "after": "\#(text)"}"#.utf8)
        #expect(body.count > 2_000_000)
        var chunked = ChunkedRecordDecoder(decoder)
        var largestBuffer = 0
        try body.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 16_384) {
                try chunked.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 16_384, bytes.count)])) {
                    _, _ in
                }
                largestBuffer = max(largestBuffer, chunked.bufferedByteCount)
            }
        }
        #expect(try chunked.finish() == 1)
        #expect(largestBuffer == 0)
    }

    @Test("a record larger than a chunk is gathered, and a buffer grown past 1 MiB is let go after it")
    func largeRecord() throws {
        let large = #"{"id": 1, "text": "\#(String(repeating: "x", count: 3_000_000))"}"#
        let small = #"{"id": 2, "address": {"city": "\#(String(repeating: "y", count: 30_000))"}}"#
        let body = Array(#"{"data": [\#(large), \#(small), \#(small)]}"#.utf8)
        var chunked = ChunkedRecordDecoder(decoder)
        var buffers: [Int] = []
        var raws: [Int] = []
        try body.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 16_384) {
                try chunked.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 16_384, bytes.count)])) {
                    record, _ in raws.append(record.raw.count)
                }
                buffers.append(chunked.bufferedByteCount)
            }
        }
        #expect(try chunked.finish() == 3)
        #expect(raws == [large.utf8.count, small.utf8.count, small.utf8.count])
        let largest = try #require(buffers.max())
        #expect(largest >= large.utf8.count && largest <= 2 * large.utf8.count)
        #expect(try #require(buffers.last) < 1 << 20)
    }

    /// A body of jsonplaceholder-like users under `data`, and the size of its largest record.
    static func makeUsers(count: Int) -> (body: [UInt8], largestRecord: Int) {
        var random = SeededRandom(seed: 7)
        var text = "{\"data\": [\n"
        var largest = 0
        for id in 1...count {
            let name = String(repeating: "n", count: Int(random.next() % 40))
            let record = """
                {
                    "id": \(id),
                    "name": "\(name) \u{e9}",
                    "address": {"city": "City \(id)", "geo": {"lat": "\(Int(random.next() % 180)).5", "lng": "1.5"}},
                    "company": {"name": "\(String(repeating: "c", count: Int(random.next() % 500)))"}
                  }
                """
            largest = max(largest, record.utf8.count)
            text += "  " + record + (id == count ? "\n" : ",\n")
        }
        return (Array((text + "]}\n").utf8), largest)
    }
}
