import SyncTesting
import Testing

@testable import SyncCore

/// `max_record`: a record longer than the decoder's limit fails the body with one sentence, whole or chunked, and the
/// chunked decoder stops gathering it there, so that memory stays bounded by the limit whatever arrives.
@Suite("A record larger than max_record")
struct RecordSizeLimitTests {
    /// Three records, the second about 3 KiB long: over a 1 KiB limit, under the default.
    static let body = Array(
        ("[{\"id\": 1, \"name\": \"Ada\"}, {\"id\": 2, \"name\": \"" + String(repeating: "x", count: 3_000)
            + "\"}, {\"id\": 3, \"name\": \"Grace\"}]").utf8)

    static func decoder(limit: Int? = nil) throws -> RecordDecoder {
        var decoder = try makeRecordDecoder(
            columns: [
                ColumnFixture(name: "id", path: "id", type: .integer), ColumnFixture(name: "name", path: "name"),
            ],
            keyColumns: [0])
        if let limit { decoder.maxRecordBytes = limit }
        return decoder
    }

    @Test("under the default limit the long record decodes like any other")
    func underDefault() throws {
        let outcome = try Self.decoder().wholeOutcome(Self.body)
        #expect(outcome.end == .success(3))
    }

    @Test(
        "whole and in chunks of any size: the records before it, then the same one-sentence error",
        arguments: [Chunking.whole, .bytes, .fixed(100), .fixed(2_000), .random(seed: 7, maximum: 700)])
    func overLimit(_ chunking: Chunking) throws {
        let decoder = try Self.decoder(limit: 1_024)
        let whole = decoder.wholeOutcome(Self.body)
        #expect(whole.records.map(\.index) == [0])
        #expect(
            whole.end
                == .failure(
                    .init(
                        code: "record_too_large",
                        description: "record #2, from byte 27, is larger than max_record (1 KiB)")))
        #expect(decoder.chunkedOutcome(Self.body, chunking) == whole)
    }

    @Test("the chunked decoder never gathers more than the limit of a long record")
    func boundedMemory() throws {
        var chunked = ChunkedRecordDecoder(try Self.decoder(limit: 4_096))
        let opening = Array("[{\"id\": 1, \"name\": \"".utf8)
        let filler = [UInt8](repeating: UInt8(ascii: "y"), count: 1_000)
        var thrown: (any Error)?
        var largestBuffer = 0
        for chunk in [opening] + Array(repeating: filler, count: 100) {
            do {
                try chunk.withUnsafeBytes { try chunked.feed($0) { _, _ in } }
            } catch {
                thrown = error
                break
            }
            largestBuffer = max(largestBuffer, chunked.bufferedByteCount)
        }
        #expect((thrown as? BodyDecodingError) == .recordTooLarge)
        #expect(largestBuffer <= 8_192)
    }
}
