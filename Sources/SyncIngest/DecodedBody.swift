/// A collection's records on their way from the fetch to the store: a body on disk, checked as it streamed in, or
/// still arriving. The store takes its records from a ``RecordPipeline`` over it (which decodes them again, on a
/// thread of its own) and never touches the bytes: where they wait, and how the fetch reports them, is the ingest
/// room's business.
package struct DecodedBody: Sendable {
    let spool: BodySpool
    /// Where each page's body is in the spool, in the order fetched.
    let pages: [Range<Int>]
    /// The body as it still arrives, for a transaction that starts before the fetch ends; nil when it is all there
    /// (``pages`` says where).
    let feed: SpoolFeed?
    /// Whether the body is an endpoint's pages (it has `pagination`): a page that does not decode is named.
    let isPaged: Bool

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

    /// Whether the body is still arriving: its records are stored as they come, and its run's facts are known once
    /// the last batch was taken (``finalFacts``).
    package var isStreamed: Bool { feed != nil }

    /// For a body still arriving: asks `check` whether another write waits each time the records run dry, and gives
    /// way (the pipeline then throws, and nothing may be stored) when it does. A store whose writes would hold up
    /// others while it waits for the network says so here.
    package func giveWay(when check: @escaping @Sendable () -> Bool) {
        feed?.setYield(check)
    }

    /// A streamed body's run facts (status, validators, bytes, pages), once its fetch ended; nil before, and for a
    /// body that was whole from the start (its facts came with the call).
    package var finalFacts: RunFacts? { feed?.finalFacts }
}
