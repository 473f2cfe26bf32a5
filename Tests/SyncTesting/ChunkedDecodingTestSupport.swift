package import SyncCore
package import SyncSupport
import Testing

/// A small deterministic generator, so that random chunkings repeat from run to run.
package typealias SeededRandom = SplitMix64

/// Everything a decoder says about one body: the records it yielded, then the count or the error.
package struct DecodingOutcome: Equatable, CustomStringConvertible {
    package var records: [SeenRecord]
    /// The count, or the error's short name and description.
    package var end: Result<Int, OutcomeError>

    package struct OutcomeError: Error, Equatable {
        package var code: String
        package var description: String

        package init(code: String, description: String) {
            self.code = code
            self.description = description
        }
    }

    package var description: String {
        let ending =
            switch end {
            case .success(let count): "count \(count)"
            case .failure(let error): "\(error.code): \(error.description)"
            }
        return "\(records.count) records [\(records.map(\.raw).joined(separator: " | "))], \(ending)"
    }
}

/// How a body is cut into chunks.
package enum Chunking: CustomStringConvertible {
    case whole
    case bytes
    /// Random sizes from 1 to `maximum`, from a seeded generator.
    case random(seed: UInt64, maximum: Int)
    /// Random sizes from 0 to `maximum`: empty chunks too.
    case randomWithEmpty(seed: UInt64, maximum: Int)
    /// Two chunks, split at an offset.
    case split(Int)
    case fixed(Int)

    package var description: String {
        switch self {
        case .whole: "whole"
        case .bytes: "byte by byte"
        case .random(let seed, let maximum): "random sizes up to \(maximum), seed \(seed)"
        case .randomWithEmpty(let seed, let maximum): "random sizes up to \(maximum) with empty ones, seed \(seed)"
        case .split(let offset): "split at \(offset)"
        case .fixed(let size): "chunks of \(size)"
        }
    }

    package func sizes(for count: Int) -> [Int] {
        switch self {
        case .whole:
            return [count]
        case .bytes:
            return Array(repeating: 1, count: count)
        case .random(let seed, let maximum):
            var random = SeededRandom(seed: seed)
            var sizes: [Int] = []
            var left = count
            while left > 0 {
                let size = min(left, 1 + Int(random.next() % UInt64(maximum)))
                sizes.append(size)
                left -= size
            }
            return sizes
        case .randomWithEmpty(let seed, let maximum):
            var random = SeededRandom(seed: seed)
            var sizes: [Int] = [0]
            var left = count
            while left > 0 {
                let size = min(left, Int(random.next() % UInt64(maximum + 1)))
                sizes.append(size)
                left -= size
            }
            return sizes + [0]
        case .split(let offset):
            return [min(offset, count), count - min(offset, count)]
        case .fixed(let size):
            return stride(from: 0, to: count, by: size).map { min(size, count - $0) }
        }
    }
}

extension RecordDecoder {
    /// What `decode` says about a whole body.
    package func wholeOutcome(_ bytes: [UInt8]) -> DecodingOutcome {
        var seen: [SeenRecord] = []
        do {
            let count = try bytes.withUnsafeBytes { buffer in
                try decode(buffer) { record in seen.append(SeenRecord(record, bytes: buffer)) }
            }
            return DecodingOutcome(records: seen, end: .success(count))
        } catch {
            return DecodingOutcome(records: seen, end: .failure(DecodingOutcome.OutcomeError(error)))
        }
    }

    /// What a ``ChunkedRecordDecoder`` says about a body fed in chunks; `decodingRecords: false` only checks.
    package func chunkedOutcome(_ bytes: [UInt8], _ chunking: Chunking, decodingRecords: Bool = true) -> DecodingOutcome
    {
        var chunked = ChunkedRecordDecoder(self, decodingRecords: decodingRecords)
        var seen: [SeenRecord] = []
        do {
            var start = 0
            for size in chunking.sizes(for: bytes.count) {
                // Each chunk in its own allocation, so that reading past it would not go unnoticed.
                let chunk = Array(bytes[start..<(start + size)])
                try chunk.withUnsafeBytes { buffer in
                    try chunked.feed(buffer) { record, recordBytes in
                        seen.append(SeenRecord(record, bytes: recordBytes))
                    }
                }
                start += size
            }
            let count = try chunked.finish()
            return DecodingOutcome(records: seen, end: .success(count))
        } catch {
            return DecodingOutcome(records: seen, end: .failure(DecodingOutcome.OutcomeError(error)))
        }
    }
}

extension SeenRecord {
    package init(_ record: borrowing DecodedRecord, bytes: UnsafeRawBufferPointer) {
        self.init(
            index: record.index,
            raw: String(decoding: bytes[record.raw], as: UTF8.self),
            values: record.values,
            problems: record.problems,
            isRejected: record.isRejected
        )
    }
}

extension DecodingOutcome.OutcomeError {
    package init(_ error: any Error) {
        if let error = error as? BodyDecodingError {
            self.init(code: error.shortDescription, description: error.description)
        } else {
            self.init(code: "other", description: "\(error)")
        }
    }
}

extension Result {
    package var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}
