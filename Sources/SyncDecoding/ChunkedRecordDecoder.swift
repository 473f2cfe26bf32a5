/// Reads the records of a response body as it arrives, in chunks of any size, holding only what is unfinished.
///
/// It yields the same records as ``RecordDecoder/decode(_:_:)`` does on the whole body, each as soon as its last
/// byte arrived, and throws the same ``BodyDecodingError`` for a body that cannot be used. Memory stays small
/// whatever the body's size: a record that fits in a chunk is decoded in place; only one that spans chunks is
/// gathered in a buffer, reused from one such record to the next. Outside the records, nothing is kept but a few
/// flags per level of nesting, however long the values there are.
///
/// ```swift
/// var chunked = ChunkedRecordDecoder(decoder)
/// for try await buffer in response.body {
///     try buffer.withUnsafeReadableBytes { chunk in
///         try chunked.feed(chunk) { record, recordBytes in
///             guard !record.isRejected else { return }
///             try store.upsert(record.values, raw: UnsafeRawBufferPointer(rebasing: recordBytes[record.raw]))
///         }
///     }
/// }
/// let count = try chunked.finish()
/// ```
///
/// Three things differ from ``RecordDecoder/decode(_:_:)``, all only for a body that throws anyway:
/// - A record that is a bare number and the last thing in a truncated body (`[1, 2`) is not yielded, since
///   ``finish()`` takes no closure; `decode` yields it, rejected, before throwing ``BodyDecodingError/truncated``.
/// - A syntax error on a non-ASCII byte among the last three of a chunk is thrown by the next ``feed(_:_:)`` or by
///   ``finish()``, once the character there has arrived, so that the message names it as `decode`'s does.
/// - A record longer than ``RecordDecoder/maxRecordBytes`` that is also broken or cut off throws
///   ``BodyDecodingError/recordTooLarge`` as soon as the limit is passed, since no more of it is gathered; `decode`
///   throws the syntax error it meets first. (A whole record over the limit throws the same error from both.)
///
/// After it throws, a decoder throws the same error from every call.
///
/// ## Topics
///
/// - ``init(_:)``
/// - ``feed(_:_:)``
/// - ``finish()``
/// - ``bufferedByteCount``
package struct ChunkedRecordDecoder {
    /// Values that may go on past the chunk are tried whole at most this often per chunk, so that deep nesting
    /// across a chunk boundary cannot make each chunk be scanned again and again.
    static let wholeValueTriesPerChunk = 16
    /// A buffer for records that span chunks is kept for the next one unless it has grown larger than this.
    static let keptCarryCapacity = 1 << 20

    private let decoder: RecordDecoder
    private var splitter: BodySplitter
    private var walker: RecordWalker
    /// Reused for every record, so its arrays keep their storage.
    private var record: DecodedRecord
    /// Unescaped string content, reused.
    private var scratch: [UInt8] = []
    /// The bytes so far of a record that began in an earlier chunk.
    private var carry: [UInt8] = []
    /// The offset in the body of the carried record's first byte.
    private var carryOffset = 0
    var tracker = BodyPositionTracker()
    /// A syntax error waiting for the rest of the character it points at.
    var pendingError: PendingSyntaxError?
    /// What the decoder threw, thrown again by every later call.
    var failure: (any Error)?
    private var recordCount = 0
    /// The values kept at paths outside the records; nil when none were asked for.
    private var envelope: EnvelopeCapture?
    /// Whether records are decoded into values and yielded; when not, they are only checked and counted.
    private let decodesRecords: Bool
    /// The value at `lastRecordPath` in the latest record, as a cursor is read from it.
    private var lastRecord: LastRecordCapture?

    /// Makes a decoder for one body.
    ///
    /// - Parameters:
    ///   - decoder: the endpoint's decoder: records path, columns, key and strictness.
    ///   - paths: paths outside the records whose values ``capturedValue(at:)`` tells once the body was read (a
    ///     next cursor, a has-more flag); none by default, which costs nothing.
    ///   - lastRecordPath: a path inside each record whose value in the last record ``lastRecordValue`` tells (a
    ///     cursor taken from the last record); none by default. Read only when `decodingRecords` is false: a reader
    ///     of the records has their values.
    ///   - decodingRecords: false to only check and count the records, for a reader that needs no values (a paged
    ///     fetch deciding on its next page while the transaction decodes the records): they are read with the same
    ///     checks and errors, but ``feed(_:_:)`` yields none of them.
    ///   - observingSchema: true to note, in ``schemaTally``, the fields no column maps and the JSON types of the
    ///     columns' values (a sync's schema-drift journal); records must be decoded.
    package init(
        _ decoder: RecordDecoder, capturing paths: [JSONPath] = [], lastRecordPath: JSONPath? = nil,
        decodingRecords: Bool = true, observingSchema: Bool = false
    ) {
        self.decoder = decoder
        self.decodesRecords = decodingRecords
        self.envelope = paths.isEmpty ? nil : EnvelopeCapture(paths: paths)
        self.splitter = BodySplitter(recordsPath: decoder.recordsPath)
        self.splitter.wholeValueTries = Self.wholeValueTriesPerChunk
        let columnCount = decodingRecords ? decoder.columns.count : 0
        // Without columns to find, the walker skips each record whole, checking its syntax as it goes; with a last
        // record's path, that path is its one column.
        let trie: ColumnTrie
        if decodingRecords {
            trie = decoder.trie
        } else if let lastRecordPath {
            trie = ColumnTrie(paths: [lastRecordPath])
            lastRecord = LastRecordCapture()
        } else {
            trie = ColumnTrie(paths: [])
        }
        self.walker = RecordWalker(scanner: Self.noBytes, trie: trie, columnCount: lastRecord == nil ? columnCount : 1)
        if observingSchema, decodingRecords { walker.tally = SchemaTally(columnCount: columnCount) }
        self.record = DecodedRecord.empty(columnCount: columnCount)
    }

    /// What the records so far showed of their shape, when ``init(_:capturing:lastRecordPath:decodingRecords:observingSchema:)``
    /// asked.
    package var schemaTally: SchemaTally? { walker.tally }

    /// The value at the `lastRecordPath` given to ``init(_:capturing:lastRecordPath:decodingRecords:)`` in the last
    /// record read: nil when there was none, it held none there, or one longer than 64 KiB.
    package var lastRecordValue: CapturedValue? { lastRecord?.value }

    /// The bytes held between calls: the buffer for a record that spans chunks, whose capacity is kept for the
    /// next such record unless it grew past 1 MiB.
    package var bufferedByteCount: Int { carry.capacity }

    /// The value the body held at one of the paths given to ``init(_:capturing:)``: nil when it held none there, or
    /// one longer than 64 KiB.
    package func capturedValue(at path: JSONPath) -> CapturedValue? {
        envelope?.value(at: path)
    }

    /// The paths given to ``init(_:capturing:)`` whose value was longer than 64 KiB, and not kept.
    package var overlongCapturedPaths: [JSONPath] { envelope?.overlongPaths ?? [] }

    /// Reads the next chunk of the body, calling `body` with each record that ends in it.
    ///
    /// - Parameters:
    ///   - chunk: the body's next bytes; the first chunk may start with a byte order mark. Any size, even empty.
    ///   - body: called once per record completed by this chunk, in order, with the record and the buffer its
    ///     ``DecodedRecord/raw`` range indexes into, which holds that record's exact bytes as received. Both are
    ///     valid only during the call; the record's storage is reused for the next one.
    /// - Throws: ``BodyDecodingError`` as ``RecordDecoder/decode(_:_:)`` does, with byte offsets in the whole body;
    ///   any error thrown by `body`, unchanged.
    package mutating func feed(
        _ chunk: UnsafeRawBufferPointer,
        _ body: (borrowing DecodedRecord, _ recordBytes: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if let failure { throw failure }
        let bytes = chunk.assumingMemoryBound(to: UInt8.self)
        if var pending = pendingError {
            pending.found.append(contentsOf: bytes.prefix(4 - pending.found.count))
            pendingError = pending
            guard pending.isComplete else { return }
            throw fail(pending.bodyError)
        }
        do {
            try read(bytes, body)
        } catch let error as JSONSyntaxError {
            try report(error, in: bytes)
        } catch let error as RecordHandlerError {
            throw fail(error.underlying)
        } catch {
            throw fail(error)
        }
    }

    /// Ends the body, checking that it was whole.
    ///
    /// - Returns: the number of records seen, rejected ones included.
    /// - Throws: ``BodyDecodingError`` as ``RecordDecoder/decode(_:_:)`` would have for the whole body:
    ///   ``BodyDecodingError/truncated``, ``BodyDecodingError/notJSON`` for an empty body,
    ///   ``BodyDecodingError/recordsPathMissing``, …
    package mutating func finish() throws -> Int {
        if let failure { throw failure }
        if let pending = pendingError { throw fail(pending.bodyError) }
        do {
            try splitter.finish()
            envelope?.finish()
        } catch {
            let noBytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            throw fail(PendingSyntaxError(error, tracker: tracker, chunk: noBytes).bodyError)
        }
        return recordCount
    }

    /// Reads a chunk: the splitter finds the records, which are walked in place or gathered in `carry`.
    private mutating func read(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ body: (borrowing DecodedRecord, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var index = 0
        // Where this chunk's part of a carried record starts.
        var carryStart = 0
        while true {
            switch try splitter.run(bytes, from: index) {
            case .chunkEnd:
                if splitter.isInRecord {
                    try checkRecordSize(carry.count + bytes.count - carryStart)
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[carryStart...]))
                } else {
                    envelope?.feed(UnsafeBufferPointer(rebasing: bytes[index...]))
                }
                splitter.endChunk(count: bytes.count, nextChunkWholeValueTries: Self.wholeValueTriesPerChunk)
                tracker.advance(over: bytes)
                walker.scanner = Self.noBytes
                return
            case .recordStart(let start):
                if envelope != nil {
                    envelope?.feed(UnsafeBufferPointer(rebasing: bytes[index..<start]))
                    envelope?.feedRecordPlaceholder()
                }
                if let end = try readRecordInPlace(bytes, at: start, body) {
                    splitter.recordWasReadInPlace()
                    index = end
                } else {
                    splitter.beginRecord()
                    carryStart = start
                    carryOffset = tracker.consumed + start
                    index = start
                }
            case .recordEnd(let end):
                try checkRecordSize(carry.count + end - carryStart)
                carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[carryStart..<end]))
                try readCarriedRecord(body)
                index = end
            }
        }
    }

    /// Walks the record at `start` inside the chunk and yields it.
    ///
    /// - Returns: the index after the record, or nil when it may go on past the chunk.
    private mutating func readRecordInPlace(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at start: Int,
        _ body: (borrowing DecodedRecord, UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int? {
        walker.scanner = JSONScanner(UnsafeRawBufferPointer(bytes), position: start)
        let isObject: Bool
        do {
            isObject = try walker.walkRecord(depth: splitter.recordDepth)
        } catch {
            guard case .unexpectedEnd = error.problem else {
                throw JSONSyntaxError(error.problem, at: tracker.consumed + error.offset)
            }
            return nil
        }
        let end = walker.scanner.position
        // A number that reaches the chunk's end may have more digits in the next one.
        guard end < bytes.count || !BodySplitter.startsNumber(bytes[start]) else { return nil }
        guard end - start <= decoder.maxRecordBytes else {
            throw BodyDecodingError.recordTooLarge(
                index: recordCount, offset: tracker.consumed + start, limit: decoder.maxRecordBytes)
        }
        try yield(raw: start..<end, isObject: isObject, in: UnsafeRawBufferPointer(bytes), body)
        return end
    }

    /// Walks the record gathered in `carry`, which the splitter found whole, and yields it.
    private mutating func readCarriedRecord(
        _ body: (borrowing DecodedRecord, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var carried: [UInt8] = []
        swap(&carried, &carry)
        defer {
            if carried.capacity <= Self.keptCarryCapacity {
                carried.removeAll(keepingCapacity: true)
                swap(&carried, &carry)
            }
        }
        try carried.withUnsafeBytes { buffer in
            walker.scanner = JSONScanner(buffer)
            let isObject: Bool
            do throws(JSONSyntaxError) {
                isObject = try walker.walkRecord(depth: splitter.recordDepth)
            } catch {
                throw JSONSyntaxError(error.problem, at: carryOffset + error.offset)
            }
            try yield(raw: 0..<walker.scanner.position, isObject: isObject, in: buffer, body)
        }
    }

    private mutating func yield(
        raw: Range<Int>,
        isObject: Bool,
        in recordBytes: UnsafeRawBufferPointer,
        _ body: (borrowing DecodedRecord, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard decodesRecords else {
            recordCount += 1
            lastRecord?.keep(walker.value(ofColumn: 0))
            return
        }
        decoder.fill(&record, index: recordCount, raw: raw, isObject: isObject, walker: walker, scratch: &scratch)
        if var tally = walker.tally {
            // Moved out while it reads the walker, so that it is not copied.
            walker.tally = nil
            tally.noteRecord(walker)
            walker.tally = tally
        }
        recordCount += 1
        do {
            try body(record, recordBytes)
        } catch {
            throw RecordHandlerError(underlying: error)
        }
    }

    /// Throws ``BodyDecodingError/recordTooLarge`` once the carried record would hold more than `max_record`, before
    /// its bytes are gathered.
    private func checkRecordSize(_ size: Int) throws {
        guard size <= decoder.maxRecordBytes else {
            throw BodyDecodingError.recordTooLarge(
                index: recordCount, offset: carryOffset, limit: decoder.maxRecordBytes)
        }
    }

    private static var noBytes: JSONScanner { JSONScanner(UnsafeRawBufferPointer(start: nil, count: 0)) }
}

/// The bytes of one value of the latest record, kept until the next record replaces them: the buffer is reused.
private struct LastRecordCapture {
    private var bytes: [UInt8] = []
    private var isKept = false

    /// The kept value, read as ``CapturedValue``.
    var value: CapturedValue? { isKept ? CapturedValue(bytes: bytes) : nil }

    /// Keeps `value` in place of the previous record's; nil or longer than 64 KiB keeps nothing.
    mutating func keep(_ value: UnsafeBufferPointer<UInt8>?) {
        bytes.removeAll(keepingCapacity: bytes.capacity <= EnvelopeCapture.maximumValueLength)
        guard let value, value.count <= EnvelopeCapture.maximumValueLength else {
            isKept = false
            return
        }
        bytes.append(contentsOf: value)
        isKept = true
    }
}
