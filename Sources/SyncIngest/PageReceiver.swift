package import NIOCore
import SyncHTTP

/// One attempt at one page, as its bytes arrive from the transport: appended to the run's spool (made on the first
/// byte: a 304, the common answer, creates no file), bounded by the run's limit, announced to the feed a transaction
/// follows, and read by the page probe for the next page's choice.
///
/// ```swift
/// var receiver = PageReceiver(spool: spool, from: start, directory: directory, limit: limit, feed: feed, probe: probe)
/// let response = try await transport.fetch(request) { chunk in
///     try receiver.append(chunk)
///     try receiver.probe(chunk)
/// }
/// ```
package struct PageReceiver {
    /// The run's spool, once a byte arrived (or an earlier page made it).
    package private(set) var spool: BodySpool?
    /// What the probe read of this page.
    package private(set) var pageProbe: PageProbe?
    private let directory: String
    private let limit: Int
    private let feed: SpoolFeed?

    /// An attempt at a page whose bytes go after `start` of `spool`: what an earlier attempt left there is dropped,
    /// and a feed whose transaction may have read it gives way.
    package init(
        spool: BodySpool?, from start: Int, directory: String, limit: Int, feed: SpoolFeed?, probe: PageProbe?
    ) {
        feed?.restarting(at: start)
        spool?.truncate(to: start)
        self.spool = spool
        self.pageProbe = probe
        self.directory = directory
        self.limit = limit
        self.feed = feed
    }

    /// Appends a chunk to the spool and tells the feed.
    ///
    /// - Throws: ``FetchError`` when the run's bodies would pass the limit, or the spool's file cannot be written.
    package mutating func append(_ chunk: ByteBuffer) throws {
        let file = spool ?? BodySpool(directory: directory)
        spool = file
        guard file.count <= limit - chunk.readableBytes else { throw FetchError.spoolFull(limit: limit) }
        try file.append(chunk)
        feed?.received(upTo: file.count, in: file)
    }

    /// Reads a chunk with the probe, if any: the records themselves are the transaction's, here only what the next
    /// page's choice needs.
    ///
    /// - Throws: What the page's decoder found wrong.
    package mutating func probe(_ chunk: ByteBuffer) throws {
        try chunk.withUnsafeReadableBytes { bytes in try pageProbe?.feed(bytes) }
    }
}
