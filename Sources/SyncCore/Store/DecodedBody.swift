/// A collection body on disk, checked as it streamed in; the transaction that applies it decodes it again, on a
/// thread of its own (``RecordPipeline``), and counts what it finds.
package struct DecodedBody: Sendable {
    package var spool: BodySpool
    /// Where each page's body is in the spool, in the order fetched.
    package var pages: [Range<Int>]
    /// The body as it still arrives, for a transaction that starts before the fetch ends; nil when it is all there
    /// (``pages`` says where).
    package var feed: SpoolFeed?
    /// Whether the body is an endpoint's pages (it has `pagination`): a page that does not decode is named.
    package var isPaged: Bool

    package init(spool: BodySpool, pages: [Range<Int>]? = nil, isPaged: Bool = false) {
        self.spool = spool
        self.pages = pages ?? [0..<spool.count]
        self.feed = nil
        self.isPaged = isPaged
    }

    /// A body still arriving in `spool`, as `feed` reports it.
    package init(spool: BodySpool, feed: SpoolFeed) {
        self.spool = spool
        self.pages = []
        self.feed = feed
        self.isPaged = feed.isPaged
    }
}
