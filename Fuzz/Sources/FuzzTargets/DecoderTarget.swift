import SyncCore
import SyncSupport

/// The streaming record decoder, differentially: a body fed to ``ChunkedRecordDecoder`` in chunks cut at random must
/// give what ``RecordDecoder/decode(_:_:)`` gives for the whole body — the same records (`_raw`, column values,
/// problems, rejection), then the same count or the same error, message included — and the same values at the
/// captured envelope paths however it is cut. Each record read again alone gives the same values and problems. A
/// decoder that only counts the records (a paged fetch's) counts as many, and keeps the same last record's `id`
/// however the body is cut; so does its schema-drift tally (fields no column maps, each column's presence and types).
///
/// Input: one byte choosing the decoder, then the body. Byte bits 0–1 pick the records path (`$`, `data`,
/// `data.items`, `pages[1].rows`), bit 2 strictness, bits 3–5 the largest chunk (1 to 4096 bytes); the chunk sizes
/// and a split offset come from a hash of the whole input, as does a `max_record` of 48 bytes for a quarter of the
/// inputs. Seeds start with a printable byte: `` ` `` is `$` in chunks of up to 16 bytes, `a` `data`, `b`
/// `data.items`, `c` `pages[1].rows`, `d` to `g` the same strictly; `@` is `$` in chunks of at most one byte, `8` in
/// chunks of up to 4096.
enum DecoderTarget {
    static let recordsPaths = ["$", "data", "data.items", "pages[1].rows"]
    static let chunkLimits = [1, 2, 3, 7, 16, 64, 512, 4096]
    static let capturedPaths = ["next", "meta.next_cursor", "has_more", "links.next", "pages[0]"]
    static let smallMaxRecord = 48

    /// Columns of every type, nested, indexed and quoted paths, one required: every extraction path is taken.
    static let columns: [(name: String, path: String, type: ColumnType, required: Bool)] = [
        ("id", "id", .integer, false),
        ("name", "name", .text, false),
        ("lat", "geo.lat", .real, false),
        ("at", "at", .timestamp, false),
        ("second", "tags[1]", .text, false),
        ("flag", "flag", .boolean, false),
        ("doc", "doc", .json, false),
        ("deep", "a.b[0].c", .integer, false),
        ("quoted", #"["x.y"]"#, .text, false),
        ("kind", "kind", .text, true),
    ]

    /// The 8 decoders, made once.
    static let decoders: [RecordDecoder] = (0..<8).map { choice in
        let specs = columns.map { column in
            ColumnSpec(name: column.name, path: path(column.path), type: column.type, required: column.required)
        }
        return RecordDecoder(
            recordsPath: path(recordsPaths[choice & 3]), columns: specs, keyColumns: [0], strict: choice & 4 != 0)
    }

    static let captures: [JSONPath] = capturedPaths.map(path)
    /// Where a cursor is read in each page's last record (`from = "last_record"`).
    static let lastRecordPath = path("id")

    /// One of the paths above; they are ours, so a bad one is our bug.
    static func path(_ text: String) -> JSONPath {
        guard let path = try? JSONPath(parsing: text) else { preconditionFailure("the fuzz target's path \(text)") }
        return path
    }

    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        guard let first = input.first else { return }
        var decoder = decoders[Int(first & 7)]
        let limit = chunkLimits[Int((first >> 3) & 7)]
        let body = Array(input.dropFirst())
        var random = FuzzRandom(hashing: input)
        // For a quarter of the inputs, a max_record small enough to be reached.
        if random.next() % 4 == 0 { decoder.maxRecordBytes = smallMaxRecord }

        let whole = DecodingOutcome.whole(decoder, body)
        let chunkings: [[Int]] = [
            [body.count],
            randomSizes(total: body.count, limit: limit, using: &random),
            split(total: body.count, at: Int(random.next() % UInt64(body.count + 1))),
        ]
        var firstCaptured: [CapturedValue?]?
        var firstLastRecord: CapturedValue??
        var firstTally: SchemaTally?
        for sizes in chunkings {
            // A paged fetch's reader: records only checked and counted, a cursor kept from the last one.
            let counted = DecodingOutcome.lastRecordValue(decoder, body, sizes: sizes, at: lastRecordPath)
            if case .success(let count) = whole.end {
                guard let counted else { throw FuzzFailure("chunks \(sizes): counting failed where decode did not") }
                try require(counted.count == count, "chunks \(sizes): counted \(counted.count), decode \(count)")
                if let firstLastRecord {
                    try require(
                        counted.value == firstLastRecord,
                        "chunks \(sizes): the last record's id \(String(describing: counted.value)), else "
                            + "\(String(describing: firstLastRecord))")
                } else {
                    firstLastRecord = .some(counted.value)
                }
            }
            let (chunked, captured, tally) = DecodingOutcome.chunked(decoder, body, sizes: sizes, capturing: captures)
            try require(
                chunked == whole || chunked.isDocumentedDifference(from: whole)
                    || chunked.isStoppedAtMaxRecord(comparedWith: whole),
                "chunks \(sizes) of \(body.count) bytes: decode gave \(whole), the chunked decoder \(chunked)")
            if case .success(let count) = chunked.end {
                // The schema-drift tally: the same fields, counts and types however the body is cut.
                if let tally {
                    try require(tally.records == count, "chunks \(sizes): tallied \(tally.records) of \(count) records")
                    if let firstTally {
                        try require(tally == firstTally, "chunks \(sizes): tally \(tally), whole \(firstTally)")
                    } else {
                        firstTally = tally
                    }
                }
                if let firstCaptured {
                    try require(
                        captured == firstCaptured, "chunks \(sizes): captured \(captured), whole \(firstCaptured)")
                } else {
                    firstCaptured = captured
                }
            }
        }
        for record in whole.records {
            let alone = record.raw.withUnsafeBytes { decoder.decodeRecord($0, index: record.index) }
            try require(
                Seen(alone, raw: record.raw) == record,
                "record \(record.index) read alone gave \(Seen(alone, raw: record.raw)), in its body \(record)")
            for value in record.values {
                if case .real(let real) = value { try require(real.isFinite, "record \(record.index) holds \(real)") }
            }
        }
    }

    static func randomSizes(total: Int, limit: Int, using random: inout FuzzRandom) -> [Int] {
        var sizes: [Int] = []
        var left = total
        while left > 0 {
            // Empty chunks too: a transport may deliver one.
            let size = min(left, Int(random.next() % UInt64(limit + 1)))
            sizes.append(size)
            left -= size
        }
        return sizes
    }

    static func split(total: Int, at offset: Int) -> [Int] {
        [min(offset, total), total - min(offset, total)]
    }
}

/// One record as a decoder yielded it.
struct Seen: Equatable, CustomStringConvertible {
    var index: Int
    var raw: [UInt8]
    var values: [ColumnValue]
    var problems: [DecodingProblem]
    var isRejected: Bool

    init(_ record: borrowing DecodedRecord, bytes: UnsafeRawBufferPointer) {
        self.init(record, raw: Array(bytes[record.raw]))
    }

    init(_ record: borrowing DecodedRecord, raw: [UInt8]) {
        index = record.index
        self.raw = raw
        values = record.values
        problems = record.problems
        isRejected = record.isRejected
    }

    static func == (lhs: Seen, rhs: Seen) -> Bool {
        // Reals by their bits, so that a NaN (reported on its own) does not look like a difference.
        lhs.index == rhs.index && lhs.raw == rhs.raw && lhs.problems == rhs.problems
            && lhs.isRejected == rhs.isRejected && lhs.values.count == rhs.values.count
            && zip(lhs.values, rhs.values).allSatisfy { left, right in
                if case .real(let a) = left, case .real(let b) = right { return a.bitPattern == b.bitPattern }
                return left == right
            }
    }

    var description: String {
        "#\(index) \(String(decoding: raw, as: UTF8.self).debugDescription) \(values) \(problems)"
            + (isRejected ? " rejected" : "")
    }
}

/// Everything a decoder said about one body: the records, then the count or the error's code and message.
struct DecodingOutcome: Equatable, CustomStringConvertible {
    var records: [Seen]
    var end: Result<Int, Ending>

    struct Ending: Error, Equatable {
        var code: String
        var message: String

        init(_ error: any Error) {
            if let error = error as? BodyDecodingError {
                code = error.shortDescription
                message = error.description
            } else {
                code = "other"
                message = "\(error)"
            }
        }
    }

    var description: String {
        let ending =
            switch end {
            case .success(let count): "count \(count)"
            case .failure(let error): "\(error.code): \(error.message)"
            }
        return "\(records.count) records \(records), \(ending)"
    }

    static func whole(_ decoder: RecordDecoder, _ body: [UInt8]) -> DecodingOutcome {
        var seen: [Seen] = []
        do {
            let count = try body.withUnsafeBytes { buffer in
                try decoder.decode(buffer) { record in seen.append(Seen(record, bytes: buffer)) }
            }
            return DecodingOutcome(records: seen, end: .success(count))
        } catch {
            return DecodingOutcome(records: seen, end: .failure(Ending(error)))
        }
    }

    static func chunked(_ decoder: RecordDecoder, _ body: [UInt8], sizes: [Int], capturing paths: [JSONPath])
        -> (DecodingOutcome, [CapturedValue?], SchemaTally?)
    {
        var chunked = ChunkedRecordDecoder(decoder, capturing: paths, observingSchema: true)
        var seen: [Seen] = []
        do {
            var start = 0
            for size in sizes {
                // Each chunk in an allocation of its own, so that reading past it is caught by the address sanitizer.
                let chunk = Array(body[start..<(start + size)])
                try chunk.withUnsafeBytes { buffer in
                    try chunked.feed(buffer) { record, recordBytes in seen.append(Seen(record, bytes: recordBytes)) }
                }
                start += size
            }
            let count = try chunked.finish()
            return (
                DecodingOutcome(records: seen, end: .success(count)), paths.map(chunked.capturedValue(at:)),
                chunked.schemaTally
            )
        } catch {
            return (DecodingOutcome(records: seen, end: .failure(Ending(error))), [], nil)
        }
    }

    /// The count and the last record's value at `path` of a decoder that only checks and counts the records, as a
    /// paged fetch reads them; nil when it throws.
    static func lastRecordValue(_ decoder: RecordDecoder, _ body: [UInt8], sizes: [Int], at path: JSONPath)
        -> (count: Int, value: CapturedValue?)?
    {
        var chunked = ChunkedRecordDecoder(decoder, lastRecordPath: path, decodingRecords: false)
        var start = 0
        do {
            for size in sizes {
                let chunk = Array(body[start..<(start + size)])
                try chunk.withUnsafeBytes { buffer in try chunked.feed(buffer) { _, _ in } }
                start += size
            }
            return (try chunked.finish(), chunked.lastRecordValue)
        } catch {
            return nil
        }
    }

    /// The other difference ``ChunkedRecordDecoder`` documents: a record past ``RecordDecoder/maxRecordBytes`` that is
    /// also broken or cut off stops the chunked decoder there, while `decode` throws the syntax error it meets first.
    func isStoppedAtMaxRecord(comparedWith whole: DecodingOutcome) -> Bool {
        guard case .failure(let error) = end, error.code == "record_too_large", case .failure = whole.end else {
            return false
        }
        return records == Array(whole.records.prefix(records.count))
    }

    /// A difference ``ChunkedRecordDecoder`` documents: a truncated body whose last record is a bare number,
    /// which `decode` yields before throwing and `finish()` cannot.
    func isDocumentedDifference(from whole: DecodingOutcome) -> Bool {
        guard case .failure(let error) = whole.end, error.code == "truncated", end == whole.end,
            let last = whole.records.last?.raw.first
        else { return false }
        let startsNumber = last == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(last)
        return startsNumber && records == Array(whole.records.dropLast())
    }
}
