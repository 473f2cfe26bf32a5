// A run of a child endpoint: its parent's rows read, the parents to walk chosen, each walked with the endpoint's
// page walk (its own validators), `parent_concurrency` at once, its pages gathered into the run's one spool, then
// all of it applied at once.

internal import Logging
internal import NIOCore
import SyncDecoding
import SyncHTTP
import SyncIngest
import SyncModel
import SyncPersistence
internal import SyncSQLite
import SyncSupport

extension SyncEngine {
    /// One parent walked: what the store applies, and what the run's facts count.
    struct WalkedParent: Sendable {
        var walk: ChildWalk
        /// What the parent's first answer meant.
        var answer: ChildAnswer
        /// The first page's status; nil when no request was made.
        var status: Int?
        var pages: Int
        var bytes: Int
        /// Where the pages of a 2xx are, in the walk's own spool (``FanOutRun/deliver(_:pages:of:)`` takes them).
        var body: (pages: [Range<Int>], spool: BodySpool)? = nil
    }

    /// What a parent's first answer means for its child set.
    enum ChildAnswer: Sendable {
        /// A 2xx: its records replace the parent's children.
        case records
        /// A 304: the parent's stored children stay.
        case notModified
        /// A status `on_status` maps to `empty`: the parent has no children now.
        case empty
        /// A status `on_status` maps to `skip`, or a request the parent's row cannot make: its children stay.
        case skipped
    }

    /// The decision for a parent's first answer, with `on_status` (``StatusPolicy``): the one place a per-parent status
    /// is decided. nil for a status that fails the run.
    static func childAnswer(_ response: FetchResponse, endpoint: EndpointConfiguration) -> ChildAnswer? {
        if response.isNotModified { return .notModified }
        if response.isSuccess { return .records }
        switch endpoint.statusPolicy.decision(for: response.status) {
        case .fail: return nil
        case .empty: return .empty
        case .skip: return .skipped
        }
    }

    /// Runs a child endpoint: every parent chosen (``FanOutChoice``) walked, and every answer applied in one
    /// transaction (``SyncStorage/applyFanOut(_:run:facts:)``), which starts with the first records and stores them
    /// while later parents are walked, as a single body's does (``SpoolFeed``); when it gives way, the run is stored
    /// once every walk ended. A failed walk fails the run: nothing is stored.
    func runFanOut(
        _ endpoint: EndpointConfiguration, run: SyncRun, startedAt: Double, logger: Logger,
        progress: SyncProgress.Sink.Run? = nil, fetched: @Sendable () -> Void
    ) async throws -> SyncSummary {
        let name = endpoint.name.name
        guard let plan = endpoint.fanOut else {
            throw SyncFailure(
                message: "\(name): its parent \"\(endpoint.declared.parent ?? "")\" is not among the endpoints synced",
                status: nil, bytes: 0)
        }
        let inputs = try await storage.fanOutInputs(for: endpoint)
        let choice = FanOutChoice(inputs, plan: plan, only: run.parents)
        let parents = Set(inputs.parents.map(\.key))
        let walkedBefore = Set(inputs.children.keys)
        let feed = SpoolFeed(isPaged: true)
        let collected = FanOutRun<FanOutOutcome>(
            parents: choice.parents, directory: spoolDirectory, limit: spoolLimit, feed: feed)
        // Started by the first bytes delivered, a child of this run beside the walks: a run of 304s starts no
        // transaction before its walks end.
        async let streamed = feed.consume { [storage, now] _ -> SyncSummary?? in
            // nil: started, but the transaction gave way or failed.
            try? await storage.applyFanOut(
                FanOutBody(run: collected, streams: true, parents: parents, walkedBefore: walkedBefore), run: run,
                facts: { RunFacts(startedAt: startedAt, finishedAt: now()) })
        }
        var counts = SyncSummary.FanOut()
        (counts.skipped, counts.left) = (choice.skipped, choice.left)
        let walked: [WalkedParent]
        do {
            walked = try await walk(
                choice.parents, of: endpoint, plan: plan, states: inputs.children, into: collected, counts: counts,
                logger: logger, progress: progress)
        } catch {
            fetched()
            feed.fail()
            _ = await streamed
            throw error
        }
        fetched()
        counts.add(walked)
        let bytes = walked.reduce(0) { $0 + $1.bytes }
        let pages = walked.reduce(0) { $0 + $1.pages }
        // The status of a walk with records, else of a 304: what the run's row and `syncd sync` show.
        let status = (walked.first { $0.answer == .records } ?? walked.first { $0.status != nil })?.status
        let facts: @Sendable () -> RunFacts = { [now] in
            RunFacts(startedAt: startedAt, finishedAt: now(), httpStatus: status, bytes: bytes, pages: pages)
        }
        collected.finish(FanOutOutcome(walks: walked.map(\.walk), counts: counts))
        feed.close(with: facts())
        switch await streamed {
        case .some(.some(var report)):
            report.storedWhileFetching = true
            return report
        case .some(.none):
            logger.debug("Stored after the walks: the transaction that stored the first answers gave way or failed")
        case .none:
            break  // nothing was delivered before the walks ended
        }
        // Stored once every walk ended: nothing was delivered, or the transaction that stored the first gave way.
        let body = FanOutBody(run: collected, streams: false, parents: parents, walkedBefore: walkedBefore)
        do {
            return try await storage.applyFanOut(body, run: run, facts: facts)
        } catch  where error is BodyDecodingError || error is PageDecodingError {
            throw SyncFailure(
                message: "\(name): \(error); kept the stored data", status: nil, bytes: bytes, pages: pages)
        } catch let error as StoreError where error == .emptySnapshot || error == .tooManyDeletions {
            throw SyncFailure(message: error.description, status: nil, bytes: bytes, outcome: .refused)
        } catch let error as StoreError {
            throw SyncFailure(message: "\(name): \(error)", status: nil, bytes: bytes)
        }
    }

    /// Walks `parents`, ``FanOutPlan/concurrency`` at once, each delivering its pages to `run` as it ends; the walks
    /// come back in the parents' order.
    ///
    /// A walk starts only while it is fewer than ``lookahead`` parents past the first that has not ended: the walks
    /// that end early wait in their own spools for the ones ahead of them (``FanOutRun``), and a slow parent must not
    /// let thousands pile up behind it.
    ///
    /// - Throws: The first failed walk's ``SyncFailure``, with `counts` and the walks done before it
    ///   (``SyncFailure/fanOut``); the other walks are cancelled.
    private func walk(
        _ parents: [ParentRow], of endpoint: EndpointConfiguration, plan: FanOutPlan, states: [String: ChildState],
        into run: FanOutRun<FanOutOutcome>, counts: SyncSummary.FanOut, logger: Logger, progress: SyncProgress.Sink.Run?
    ) async throws -> [WalkedParent] {
        let name = endpoint.name.name
        let lookahead = plan.concurrency * 8
        progress?.parents(done: 0, total: parents.count)
        return try await withThrowingTaskGroup(of: (Int, WalkedParent).self) { group in
            var results = [WalkedParent?](repeating: nil, count: parents.count)
            var next = 0
            var running = 0
            // The first parent whose walk has not ended.
            var oldest = 0
            func startWalks() {
                while running < plan.concurrency, next < parents.count, next - oldest < lookahead {
                    let (index, parent) = (next, parents[next])
                    next += 1
                    running += 1
                    group.addTask {
                        var walked = try await walkChild(
                            parent, of: endpoint, state: states[parent.key], logger: logger, progress: progress)
                        do {
                            try run.deliver(index, pages: walked.body?.pages ?? [], of: walked.body?.spool)
                        } catch {
                            throw SyncFailure(
                                message: "\(name): parent \(parent.key): \(error); kept the stored data", status: nil,
                                bytes: walked.bytes)
                        }
                        walked.body = nil
                        // The parent's cursor stays unless its records move it (SyncApply.applyFanOut).
                        (walked.walk.cursor, walked.walk.cursorColumn) = (
                            states[parent.key]?.cursor, states[parent.key]?.cursorColumn
                        )
                        return (index, walked)
                    }
                }
            }
            startWalks()
            var done = 0
            do {
                while let (index, walked) = try await group.next() {
                    results[index] = walked
                    running -= 1
                    done += 1
                    while oldest < parents.count, results[oldest] != nil { oldest += 1 }
                    progress?.parents(done: done, total: parents.count)
                    startWalks()
                }
            } catch var failure as SyncFailure {
                failure.fanOut = counts.failing(after: results.compactMap { $0 })
                throw failure
            }
            return results.compactMap { $0 }
        }
    }

    /// One parent's child walk: the endpoint's page walk from the URL the parent's row fills in, conditional on the
    /// validators of the parent's last walk, into a spool of its own.
    private func walkChild(
        _ parent: ParentRow, of endpoint: EndpointConfiguration, state: ChildState?, logger: Logger,
        progress: SyncProgress.Sink.Run?
    ) async throws -> WalkedParent {
        let name = endpoint.name.name
        var logger = logger
        logger[metadataKey: "parent"] = "\(parent.key)"
        var child = endpoint
        do {
            (child.url, child.headers, child.body) = try ChildRequest.render(endpoint, for: parent)
            // An incremental child sends the parent's own cursor, set once `{parent.…}` is rendered.
            child.url = IncrementalCursor.url(
                child.url, of: endpoint, stored: state?.cursor, storedColumn: state?.cursorColumn)
        } catch {
            // The row cannot make the request (a null, a control character in a header): its children stay.
            logger.notice("Parent not walked", metadata: [LogKey.error: "\(error)"])
            let walk = ChildWalk(parent: parent, replaces: false, etag: state?.etag, lastModified: state?.lastModified)
            return WalkedParent(walk: walk, answer: .skipped, status: nil, pages: 0, bytes: 0)
        }
        let validators = state.map { (etag: $0.etag, lastModified: $0.lastModified) }
        let pages: PagedFetch
        do {
            // Each child's pages and bytes add to the run's; one child's announced totals are not the run's.
            pages = try await fetchPages(
                child, url: child.url, validators: validators, logger: logger, progress: progress,
                reportsTotals: false)
        } catch var failure as SyncFailure {
            if failure.message.hasPrefix("\(name): ") {
                failure.message = "\(name): parent \(parent.key): " + failure.message.dropFirst(name.count + 2)
            }
            throw failure
        }
        let response = pages.firstResponse
        switch Self.childAnswer(response, endpoint: endpoint) {
        case .records:
            // A body with no byte (no spool was made) is delivered as it is, and decodes as the empty body it is.
            let spool = pages.spool ?? BodySpool(directory: spoolDirectory)
            let walk = ChildWalk(
                parent: parent, replaces: true, etag: response.etag, lastModified: response.lastModified)
            return WalkedParent(
                walk: walk, answer: .records, status: response.status, pages: pages.count, bytes: spool.count,
                body: (pages.ranges, spool))
        case .notModified:
            let walk = ChildWalk(
                parent: parent, replaces: false, etag: response.etag ?? state?.etag,
                lastModified: response.lastModified ?? state?.lastModified)
            return WalkedParent(walk: walk, answer: .notModified, status: response.status, pages: pages.count, bytes: 0)
        case .empty:
            // No children now; the validators go with the set they described.
            return WalkedParent(
                walk: ChildWalk(parent: parent, replaces: true), answer: .empty, status: response.status,
                pages: pages.count, bytes: 0)
        case .skipped:
            let walk = ChildWalk(parent: parent, replaces: false, etag: state?.etag, lastModified: state?.lastModified)
            return WalkedParent(walk: walk, answer: .skipped, status: response.status, pages: pages.count, bytes: 0)
        case nil:
            let sentence = Self.statusSentence(response.status, auth: endpoint.auth)
            throw SyncFailure(
                message: "\(name): parent \(parent.key): \(sentence); kept the stored data", status: response.status,
                bytes: response.body.readableBytes, retryAfter: retryAfter(response))
        }
    }
}

/// Which parents a run of a child endpoint walks: with `children = "changed"`, only those whose row changed since
/// their last walk (and new ones); then at most `max_parents`, never walked first (in key order), then the least
/// recently walked.
struct FanOutChoice {
    var parents: [ParentRow]
    /// Parents not walked because their row did not change, or, on a run for the parents a webhook named, because
    /// it named others.
    var skipped: Int
    /// Parents beyond `max_parents`, left for later runs.
    var left: Int

    /// - Parameter only: The parents a webhook named, by key: only those are walked, changed or not.
    init(_ inputs: FanOutInputs, plan: FanOutPlan, only: Set<String>? = nil) {
        var candidates = inputs.parents
        if let only {
            candidates = candidates.filter { only.contains($0.key) }
        } else if plan.selection == .changed {
            candidates = candidates.filter { inputs.children[$0.key]?.parentVersion != $0.version }
        }
        skipped = inputs.parents.count - candidates.count
        let ordered = candidates.enumerated().sorted { first, second in
            switch (inputs.children[first.element.key]?.walkedAt, inputs.children[second.element.key]?.walkedAt) {
            case (nil, nil): first.offset < second.offset
            case (nil, _): true
            case (_, nil): false
            case (let one?, let other?): one == other ? first.offset < second.offset : one < other
            }
        }
        parents = ordered.prefix(max(0, plan.maxParents)).map(\.element)
        left = candidates.count - parents.count
    }
}
