internal import FoundationEssentials
package import SyncDecoding
import SyncSupport

/// A run's body as it arrives in its spool, for a transaction that stores the first records while the last bytes are
/// still on the way: ``RecordPipeline`` follows it, so that the fetch and the writes overlap on the two cores instead
/// of taking turns.
///
/// A producer and a consumer, both children of the run: the fetch (the producer) reports each append
/// (``received(upTo:in:)``), each page whose last byte arrived and decoded (``pageEnded(_:)``), and how the fetch
/// ended (``close(with:)``, ``fail()``); the transaction (the consumer, ``consume(_:)`` in an `async let` beside the
/// fetch) starts with the first append, so a fetch that brings no body (a 304, the common answer) starts no
/// transaction. Its pipeline asks for what it has not read yet (``next(after:page:)``) and blocks until there is some.
///
/// ```swift
/// let feed = SpoolFeed(isPaged: false)
/// async let stored = feed.consume { body in try? await storage.applyCollection(body, run: run, facts: facts) }
/// do { try await fetch(into: feed) } catch { feed.fail(); _ = await stored; throw error }
/// feed.close(with: facts())
/// if let report = await stored { return report }   // else store the whole spool now
/// ```
///
/// A waiting reader is woken by a page's end, by the fetch's end, and by every ``wakeBytes`` that arrive; an append
/// smaller than that waits for the reader's next look, at most ``yieldCheckInterval`` later. Woken for every append, a
/// paged sync of 1,000 pages of 100 records switched context 4,000–5,400 times; so woken, 3,900–4,200.
///
/// Holding SQLite's write lock while the network is slow would hold up every other write, so a streamed transaction
/// gives way: when the reader finds nothing new while another write of the process waits for the connection
/// (``setYield(_:)``), or once it has waited for the network ``waitBudget`` in all, or when a retried page drops bytes
/// it may have read, the feed is abandoned. The transaction rolls back, and the run stores the whole spool once the
/// fetch ends, as if it had never streamed: the outcome is the same either way, only the time differs.
package final class SpoolFeed: @unchecked Sendable {
    /// What the reader gets next.
    package enum Step: Equatable, Sendable {
        /// The spool holds bytes of the current page up to this offset.
        case bytes(upTo: Int)
        /// The current page ends here.
        case pageEnd(Range<Int>)
        /// Every page was read; the fetch succeeded.
        case end
    }

    /// Why the reader stops early.
    package enum Stop: Error, Equatable, Sendable {
        /// The fetch failed: nothing of it may be stored.
        case fetchFailed
        /// The feed gave way (another write waited, the network was slow, a page was fetched again).
        case abandoned
    }

    /// The most time the reader waits for the network, in all, before the feed gives way. Well under the five
    /// seconds another process waits for SQLite's write lock.
    package static let waitBudget: Duration = .seconds(1)
    /// How often a waiting reader asks whether another write waits, and looks for bytes it was not woken for.
    static let yieldCheckInterval: Duration = .milliseconds(2)
    /// A waiting reader is woken once this many bytes arrived since it was last told.
    package static let wakeBytes = 64 << 10

    // Guarded by `condition`.
    private let condition = ThreadCondition()
    private var spool: BodySpool?
    private var received = 0
    /// What the reader was last woken for.
    private var announced = 0
    private var pages: [Range<Int>] = []
    private var facts: RunFacts?
    private var stop: Stop?
    private var shouldYield: @Sendable () -> Bool = { false }
    /// The consumer waiting for the first bytes; `consumed` once it was answered (or never will wait).
    private var consumer: CheckedContinuation<BodySpool?, Never>?
    private var consumed = false
    private var waited: Duration = .zero
    private var pageFailure: PageDecodingError?

    /// Whether the body comes in pages (an endpoint with `pagination`): the reader then names the page of a body
    /// that does not decode.
    package let isPaged: Bool

    /// - Parameter isPaged: whether the body comes in pages.
    package init(isPaged: Bool = false) {
        self.isPaged = isPaged
    }

    // MARK: - The consumer

    /// Waits for the body's first bytes, then runs `store` with the body as it arrives, and returns what it returned;
    /// nil without running it when the fetch ends before any byte (a 304, a failure) or the task is cancelled first.
    ///
    /// Meant for an `async let` beside the fetch: the transaction is a child of the run, which cannot end before it.
    /// `store` must read the body through a ``RecordPipeline``, which blocks its own thread, not the fetch's.
    package func consume<Result: Sendable>(_ store: (DecodedBody) async -> Result?) async -> Result? {
        guard let spool = await firstBytes() else { return nil }
        return await store(DecodedBody(spool: spool, feed: self))
    }

    private func firstBytes() async -> BodySpool? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                condition.lock()
                if consumed || spool != nil || stop != nil || facts != nil {
                    consumed = true
                    let started = stop == nil ? spool : nil
                    condition.unlock()
                    continuation.resume(returning: started)
                    return
                }
                consumer = continuation
                condition.unlock()
            }
        } onCancel: {
            condition.lock()
            let waiting = takeConsumer()
            condition.unlock()
            waiting?.resume(returning: nil)
        }
    }

    // MARK: - The fetch side

    /// `count` bytes of the body are in `spool`.
    package func received(upTo count: Int, in spool: BodySpool) {
        condition.lock()
        let waiting = self.spool == nil && stop == nil ? takeConsumer() : nil
        self.spool = spool
        received = max(received, count)
        if received - announced >= Self.wakeBytes { announce() }
        condition.unlock()
        waiting?.resume(returning: spool)
    }

    /// A page's bytes all arrived and decoded without an error.
    package func pageEnded(_ range: Range<Int>) {
        condition.lock()
        pages.append(range)
        received = max(received, range.upperBound)
        announce()
        condition.unlock()
    }

    /// The page the reader found not to decode, if it did: the fetch stops there instead of fetching pages the run
    /// will not store.
    package var readerFailure: PageDecodingError? {
        condition.lock()
        defer { condition.unlock() }
        return pageFailure
    }

    /// A page is fetched again from `offset`: bytes the reader may have read are dropped, so it gives way.
    package func restarting(at offset: Int) {
        condition.lock()
        defer { condition.unlock() }
        if received > offset { end(.abandoned) }
    }

    /// The fetch succeeded: every page ended, and `facts` are the run's (status, validators, bytes, pages).
    package func close(with facts: RunFacts) {
        condition.lock()
        self.facts = facts
        let waiting = takeConsumer()
        announce()
        condition.unlock()
        waiting?.resume(returning: spool)
    }

    /// The fetch failed, or brought no body to stream.
    package func fail() {
        condition.lock()
        end(.fetchFailed)
        let waiting = takeConsumer()
        condition.unlock()
        waiting?.resume(returning: nil)
    }

    // MARK: - The reading side

    /// Asks `check` whether another write waits, each time the reader finds nothing new.
    package func setYield(_ check: @escaping @Sendable () -> Bool) {
        condition.lock()
        shouldYield = check
        condition.unlock()
    }

    /// The reader found that a page does not decode; it stops, and so does the fetch, at its next page.
    package func readerFailed(_ failure: PageDecodingError) {
        condition.lock()
        if pageFailure == nil { pageFailure = failure }
        condition.unlock()
    }

    /// Gives way: the reader's next call throws ``Stop/abandoned``. Also how a reader that stops early ends the feed.
    package func abandon() {
        condition.lock()
        end(.abandoned)
        condition.unlock()
    }

    /// The run's facts, once the fetch succeeded.
    package var finalFacts: RunFacts? {
        condition.lock()
        defer { condition.unlock() }
        return facts
    }

    /// Every page of the body, once the fetch succeeded (the spool then holds them all); nil before, and after a
    /// failure.
    package var completedPages: [Range<Int>]? {
        condition.lock()
        defer { condition.unlock() }
        return facts != nil && stop == nil ? pages : nil
    }

    /// Whether ``next(after:page:)`` would answer at once.
    package func hasNews(after offset: Int, page: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return stop != nil || page < pages.count || received > offset || facts != nil
    }

    /// What follows `offset` of page `page` (counted from 0), waiting until there is something.
    ///
    /// - Throws: ``Stop`` when the fetch failed or the feed gave way.
    package func next(after offset: Int, page: Int) throws(Stop) -> Step {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let stop { throw stop }
            if page < pages.count { return .pageEnd(pages[page]) }
            if received > offset { return .bytes(upTo: received) }
            if facts != nil { return .end }
            let start = ContinuousClock.now
            condition.wait(timeout: Self.yieldCheckInterval)
            waited += ContinuousClock.now - start
            if stop == nil, received <= offset, page >= pages.count, facts == nil,
                waited > Self.waitBudget || shouldYield()
            {
                end(.abandoned)
            }
        }
    }

    /// The bytes a waiting reader was last woken for: every byte received once a page or the fetch ended, else at
    /// most ``wakeBytes`` fewer.
    package var announcedBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return announced
    }

    // Called with the lock held.
    private func announce() {
        announced = received
        condition.broadcast()
    }

    // Called with the lock held.
    private func end(_ reason: Stop) {
        if stop == nil, facts == nil || reason == .abandoned { stop = reason }
        condition.broadcast()
    }

    // Called with the lock held: the consumer still waiting for the first bytes, whom the caller answers once it
    // let go of the lock; after it, the consumer finds out on its own.
    private func takeConsumer() -> CheckedContinuation<BodySpool?, Never>? {
        consumed = true
        defer { consumer = nil }
        return consumer
    }
}
