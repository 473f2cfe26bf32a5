internal import FoundationEssentials
package import SyncDecoding
import SyncSupport

/// Decodes the records of a spooled body on a thread of its own, a batch at a time, while the caller stores the
/// batches before it: one core reads and decodes while SQLite writes on the other.
///
/// A paged body was read once already, while it was fetched (that pass checks and counts each page's records, or
/// finds its first one when only an empty page ends the walk); this pass is what a sync's transaction waits for, so
/// it runs beside the transaction rather than inside it. A page of several that does not decode fails it with a
/// ``PageDecodingError`` naming the page, which a paged feed's fetch also hears of (it stops there). At most
/// ``capacity`` batches wait, so memory stays flat however large the body is.
///
/// ```swift
/// let pipeline = RecordPipeline(decoder: decoder, body: body)
/// defer { pipeline.stop() }
/// while let batch = try pipeline.next() {
///     batch.bytes.withUnsafeBytes { bytes in for record in batch.records { store(record, bytes) } }
/// }
/// ```
///
/// Errors of the decoding thread (a spool that cannot be read back, a body that no longer decodes) are thrown by
/// ``next()``; ``stop()`` ends the thread early and waits for it, so that the spool is not read after its owner is
/// done with it.
package final class RecordPipeline: @unchecked Sendable {
    /// Records decoded, each ``DecodedRecord/raw`` a range of ``bytes``, which holds their exact bytes back to back.
    package struct Batch: Sendable {
        package var records: [DecodedRecord] = []
        package var bytes: [UInt8] = []
        /// The index of the page its records came from (its first record's, unless the pipeline splits pages).
        package var page = 0
    }

    /// The most batches that wait for the consumer.
    static let capacity = 4
    /// Records per batch: enough that handing one over costs nothing beside storing it, few enough to keep it small.
    static let batchSize = 512
    /// A body of at most this many bytes, whole in memory when the transaction starts, is decoded on the caller's
    /// thread: it decodes in well under a millisecond, less than a thread costs to start and hand over to (in a cold
    /// start of 10,000 endpoints of ten records, those threads were a twentieth of the writer's time).
    static let inlineLimit = 64 << 10

    // Guarded by `condition`.
    private let condition = ThreadCondition()
    private var ready: [Batch] = []
    private var isProducing = true
    private var isStopped = false
    private var failure: (any Error)?
    private var tally: SchemaTally?

    private let feed: SpoolFeed?
    /// Whether a page that does not decode is named (``PageDecodingError``): the body is an endpoint's pages.
    private let namesPages: Bool
    /// Whether the records' shape is noted for the schema-drift journal.
    private let observesSchema: Bool
    /// Whether a batch holds the records of one page only (a child endpoint's pages are of different parents).
    private let splitsPages: Bool
    /// Decoded on the caller's thread, all at once: no thread, and no bound on the batches waiting.
    let isInline: Bool

    /// Starts decoding `pages` of `spool`, each as a body of its own; with a `feed`, the pages and their bytes as
    /// the feed reports them arriving instead.
    ///
    /// A body of at most `inlineLimit` bytes, in memory and whole (no feed, or a feed whose fetch ended) is decoded
    /// at once, on the caller's thread. With `namingPages` (or a paged feed), a page that does not decode throws a
    /// ``PageDecodingError`` naming it.
    package init(
        decoder: RecordDecoder, spool: BodySpool, pages: [Range<Int>], feed: SpoolFeed? = nil,
        namingPages: Bool = false, inlineLimit: Int = RecordPipeline.inlineLimit, observingSchema: Bool = false,
        splittingPages: Bool = false
    ) {
        self.feed = feed
        self.namesPages = namingPages || feed?.isPaged == true
        self.observesSchema = observingSchema
        self.splitsPages = splittingPages
        // A feed whose fetch ended already holds the whole body, as a body without a feed does.
        let whole = feed == nil ? pages : feed?.completedPages
        if let whole, spool.isInMemory, whole.reduce(0, { $0 + $1.count }) <= inlineLimit {
            isInline = true
            produce(decoder: decoder, spool: spool, pages: whole)
            return
        }
        isInline = false
        DetachedThread.start { [self] in
            if let feed {
                produce(decoder: decoder, spool: spool, following: feed)
            } else {
                produce(decoder: decoder, spool: spool, pages: pages)
            }
        }
    }

    /// Starts decoding `body`: its pages, or its feed's as they arrive; with `splittingPages`, no batch holds the
    /// records of two pages.
    package convenience init(
        decoder: RecordDecoder, body: DecodedBody, observingSchema: Bool = false, splittingPages: Bool = false
    ) {
        self.init(
            decoder: decoder, spool: body.spool, pages: body.pages, feed: body.feed, namingPages: body.isPaged,
            observingSchema: observingSchema, splittingPages: splittingPages)
    }

    /// The next batch, in the body's order; nil after the last.
    ///
    /// - Throws: What the decoding thread threw.
    package func next() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty, isProducing {
            condition.wait()
        }
        if !ready.isEmpty {
            let batch = ready.removeFirst()
            condition.broadcast()
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// What the records of every page showed of their shape, once ``next()`` returned nil; nil when the pipeline was
    /// not asked to observe it.
    package var schemaTally: SchemaTally? {
        condition.lock()
        defer { condition.unlock() }
        return tally
    }

    /// Adds a finished page's tally to the run's.
    private func noteSchema(of chunked: ChunkedRecordDecoder) {
        guard let page = chunked.schemaTally else { return }
        condition.lock()
        defer { condition.unlock() }
        if tally == nil { tally = page } else { tally?.merge(page) }
    }

    /// Ends the decoding thread if it still runs, and waits until it no longer reads the spool.
    package func stop() {
        // A thread waiting for the network wakes up and ends.
        feed?.abandon()
        condition.lock()
        defer { condition.unlock() }
        isStopped = true
        condition.broadcast()
        while isProducing {
            condition.wait()
        }
    }

    private struct Stopped: Error {}

    private func produce(decoder: RecordDecoder, spool: BodySpool, pages: [Range<Int>]) {
        producing { batch in
            var readBuffer: [UInt8] = []
            for (index, page) in pages.enumerated() {
                if splitsPages, !batch.records.isEmpty {
                    try hand(batch)
                    batch = Batch()
                }
                if batch.records.isEmpty { batch.page = index }
                do {
                    var chunked = ChunkedRecordDecoder(decoder, observingSchema: observesSchema)
                    try spool.forEachChunk(in: page, reusing: &readBuffer) { chunk in
                        try decode(chunk, with: &chunked, into: &batch)
                    }
                    _ = try chunked.finish()
                    noteSchema(of: chunked)
                } catch let error as BodyDecodingError where namesPages {
                    throw PageDecodingError(page: index + 1, error: error)
                }
            }
        }
    }

    /// Decodes the bytes `feed` reports, as they arrive, page after page.
    private func produce(decoder: RecordDecoder, spool: BodySpool, following feed: SpoolFeed) {
        producing { batch in
            var chunked = ChunkedRecordDecoder(decoder, observingSchema: observesSchema)
            var readBuffer: [UInt8] = []
            var offset = 0
            var page = 0
            do {
                while true {
                    // Records decoded so far are stored while the next bytes are on the way.
                    if !batch.records.isEmpty, !feed.hasNews(after: offset, page: page) {
                        try hand(batch)
                        batch = Batch(page: page)
                    }
                    switch try feed.next(after: offset, page: page) {
                    case .bytes(let end):
                        try spool.forEachChunk(in: offset..<end, reusing: &readBuffer) { chunk in
                            try decode(chunk, with: &chunked, into: &batch)
                        }
                        offset = end
                    case .pageEnd(let range):
                        try spool.forEachChunk(in: offset..<range.upperBound, reusing: &readBuffer) { chunk in
                            try decode(chunk, with: &chunked, into: &batch)
                        }
                        _ = try chunked.finish()
                        noteSchema(of: chunked)
                        chunked = ChunkedRecordDecoder(decoder, observingSchema: observesSchema)
                        offset = range.upperBound
                        page += 1
                        if splitsPages, !batch.records.isEmpty {
                            try hand(batch)
                            batch = Batch()
                        }
                        if batch.records.isEmpty { batch.page = page }
                    case .end:
                        return
                    }
                }
            } catch let error as BodyDecodingError where namesPages {
                // The fetch may have checked only the start of this page: it stops, and the run names the page.
                let failure = PageDecodingError(page: page + 1, error: error)
                feed.readerFailed(failure)
                throw failure
            }
        }
    }

    /// Runs `decoding`, which fills batches and hands each full one over, then hands over the last one and ends the
    /// thread's part: with the error `decoding` threw, if any, for the consumer's next call.
    private func producing(_ decoding: (inout Batch) throws -> Void) {
        var batch = Batch()
        do {
            try decoding(&batch)
            if !batch.records.isEmpty { try hand(batch) }
            finish(failure: nil)
        } catch is Stopped {
            finish(failure: nil)
        } catch {
            finish(failure: error)
        }
    }

    /// Decodes a chunk, adding its records to `batch` and handing each full batch over.
    private func decode(
        _ chunk: UnsafeRawBufferPointer, with chunked: inout ChunkedRecordDecoder, into batch: inout Batch
    )
        throws
    {
        try chunked.feed(chunk) { record, bytes in
            var copy = copy record
            let start = batch.bytes.count
            batch.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[record.raw]))
            copy.raw = start..<batch.bytes.count
            batch.records.append(copy)
            if batch.records.count == Self.batchSize {
                try hand(batch)
                batch = Batch(page: batch.page)
            }
        }
    }

    /// Gives a batch to the consumer, waiting while ``capacity`` batches wait already.
    private func hand(_ batch: Batch) throws {
        condition.lock()
        defer { condition.unlock() }
        while !isInline, ready.count >= Self.capacity, !isStopped {
            condition.wait()
        }
        guard !isStopped else { throw Stopped() }
        ready.append(batch)
        condition.broadcast()
    }

    private func finish(failure: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        self.failure = failure
        isProducing = false
        condition.broadcast()
    }
}
