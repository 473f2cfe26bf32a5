// A child endpoint's run as its walks end: each walk's pages copied into the run's one spool in the parents' order,
// announced to the transaction that stores them as they come, and at the end what each walk answered.

package import SyncHTTP
package import SyncModel
internal import Synchronization

/// What the walks of a child endpoint's run hand the store, shared between the walks (which end side by side, in any
/// order) and the transaction (which may store the first parents' records while later ones are on the way).
///
/// Each walk fetches into a spool of its own, then hands its pages over (``deliver(_:pages:of:)``). They are copied
/// into ``spool`` one walk at a time, in the order of ``parents``: a walk that ends before the one ahead of it waits,
/// in its own spool, until that one is in. The order is the parents' so that a run stores the same records in the
/// same order whichever walk answers first: a key two parents share ends with the later parent's row, every run. Each
/// page copied is announced to ``feed``, if any, which the transaction follows. Thousands of walks so hold one spool
/// (a chunk of it in memory, the rest in its file), and one thread decodes all of them.
///
/// The run's bodies together are bounded by `limit`, as one walk's pages are. What the walks answered besides their
/// pages (`Outcome`: the store's per-parent states and counts) is handed over with ``finish(_:)``.
package final class FanOutRun<Outcome: Sendable>: Sendable {
    /// One walk's pages, waiting for the walks ahead of it.
    private struct Delivery {
        var pages: [Range<Int>]
        var source: BodySpool?
    }

    private struct State {
        /// The next walk whose pages go in.
        var next = 0
        var waiting: [Int: Delivery] = [:]
        /// Where each page copied is in the spool, in order.
        var pages: [Range<Int>] = []
        /// The walk (its index in ``FanOutRun/parents``) of each page.
        var owners: [Int] = []
        var failure: FetchError?
        var outcome: Outcome?
    }

    /// The parents walked, in order.
    package let parents: [ParentRow]
    let spool: BodySpool
    /// The feed the transaction follows while the walks go on; nil when the run is stored once they all ended.
    let feed: SpoolFeed?
    private let limit: Int
    private let state = Mutex(State())

    package init(parents: [ParentRow], directory: String, limit: Int, feed: SpoolFeed? = nil) {
        self.parents = parents
        self.spool = BodySpool(directory: directory)
        self.feed = feed
        self.limit = limit
    }

    /// Walk `index` ended: with the pages of its answer in `source` (none for an answer with no records), or nil when
    /// it has none to store (a 304, a parent skipped). Copies it, and every walk after it that waited, into the spool.
    ///
    /// - Throws: ``FetchError`` when the run's bodies pass the limit together or the spool's file cannot be written
    ///   (then for every later delivery too).
    package func deliver(_ index: Int, pages: [Range<Int>], of source: BodySpool?) throws(FetchError) {
        try state.withLock { state throws(FetchError) in
            if let failure = state.failure { throw failure }
            state.waiting[index] = Delivery(pages: pages, source: source)
            while let delivery = state.waiting.removeValue(forKey: state.next) {
                do throws(FetchError) {
                    try copy(delivery, owner: state.next, into: &state)
                } catch {
                    state.failure = error
                    throw error
                }
                state.next += 1
            }
        }
    }

    private func copy(_ delivery: Delivery, owner: Int, into state: inout State) throws(FetchError) {
        guard let source = delivery.source else { return }
        var buffer: [UInt8] = []
        for page in delivery.pages {
            let start = spool.count
            guard page.count <= limit - start else { throw FetchError.spoolFull(limit: limit) }
            do {
                try source.forEachChunk(in: page, reusing: &buffer) { chunk in
                    try spool.append(chunk)
                    feed?.received(upTo: spool.count, in: spool)
                }
            } catch let error as FetchError {
                throw error
            } catch {
                throw FetchError.file("cannot read a parent's body back: \(error)")
            }
            let range = start..<spool.count
            state.pages.append(range)
            state.owners.append(owner)
            feed?.pageEnded(range)
        }
    }

    /// Every walk ended, and `outcome` is what they answered. Called before the feed closes, so that a transaction
    /// that read the last page finds it.
    package func finish(_ outcome: Outcome) {
        state.withLock { $0.outcome = outcome }
    }

    /// What ``finish(_:)`` was given, for a transaction that read the last page.
    ///
    /// - Throws: ``SpoolFeed/Stop/fetchFailed`` before: the walks did not all end.
    package func finished() throws(SpoolFeed.Stop) -> Outcome {
        guard let outcome = state.withLock({ $0.outcome }) else { throw .fetchFailed }
        return outcome
    }

    /// While the walks go on: asks `check` whether another write waits each time the records run dry, and gives way
    /// when it does (``DecodedBody/giveWay(when:)``).
    package func giveWay(when check: @escaping @Sendable () -> Bool) {
        feed?.setYield(check)
    }

    /// The run's records for the store: following the feed, as the walks deliver them (`streaming`), or every
    /// walk's pages once they all ended.
    package func records(streaming: Bool) -> DecodedBody {
        if streaming, let feed { return DecodedBody(spool: spool, feed: feed) }
        return DecodedBody(spool: spool, pages: pages, isPaged: true)
    }

    /// Where each page copied so far is in the spool, in order.
    var pages: [Range<Int>] { state.withLock { $0.pages } }

    /// The walk, by its index in ``parents``, whose page `page` (counted from 0 over the run) is.
    package func owner(ofPage page: Int) -> Int? {
        state.withLock { $0.owners.indices.contains(page) ? $0.owners[page] : nil }
    }
}
