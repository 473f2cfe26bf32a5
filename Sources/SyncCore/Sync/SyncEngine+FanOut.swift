// A run of a child endpoint: its parent's rows read, the parents to walk chosen, each walked with the endpoint's
// page walk (its own spool, its own validators), `parent_concurrency` at once, then all of it applied at once.

internal import Logging
internal import NIOCore
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

    /// Runs a child endpoint: every parent chosen (``FanOutChoice``) walked, then every answer applied in one
    /// transaction (``SyncStorage/applyFanOut(_:run:facts:)``). A failed walk fails the run: nothing is stored.
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
        let choice = FanOutChoice(inputs, plan: plan)
        var counts = SyncSummary.FanOut()
        (counts.skipped, counts.left) = (choice.skipped, choice.left)
        let walked: [WalkedParent]
        do {
            walked = try await walk(
                choice.parents, of: endpoint, plan: plan, states: inputs.children, logger: logger, progress: progress)
        } catch {
            fetched()
            throw error
        }
        fetched()
        counts.walked = walked.count { $0.status != nil }
        counts.notModified = walked.count { $0.answer == .notModified }
        // A walk with no records (an empty array, or a status `on_status` maps to empty) is counted as it is applied.
        counts.skipped += walked.count { $0.answer == .skipped }
        let bytes = walked.reduce(0) { $0 + $1.bytes }
        let pages = walked.reduce(0) { $0 + $1.pages }
        // The status of a walk with records, else of a 304: what the run's row and `syncd sync` show.
        let status = (walked.first { $0.answer == .records } ?? walked.first { $0.status != nil })?.status
        let facts: @Sendable () -> RunFacts = { [now] in
            RunFacts(startedAt: startedAt, finishedAt: now(), httpStatus: status, bytes: bytes, pages: pages)
        }
        let body = FanOutBody(walks: walked.map(\.walk), parents: Set(inputs.parents.map(\.key)), counts: counts)
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

    /// Walks `parents`, ``FanOutPlan/concurrency`` at once; the walks come back in the parents' order.
    ///
    /// - Throws: The first failed walk's ``SyncFailure``; the other walks are cancelled.
    private func walk(
        _ parents: [ParentRow], of endpoint: EndpointConfiguration, plan: FanOutPlan, states: [String: ChildState],
        logger: Logger, progress: SyncProgress.Sink.Run?
    ) async throws -> [WalkedParent] {
        progress?.parents(done: 0, total: parents.count)
        return try await withThrowingTaskGroup(of: (Int, WalkedParent).self) { group in
            var results = [WalkedParent?](repeating: nil, count: parents.count)
            var next = 0
            func startNext() {
                guard next < parents.count else { return }
                let (index, parent) = (next, parents[next])
                next += 1
                group.addTask {
                    var walked = try await walkChild(
                        parent, of: endpoint, state: states[parent.key], logger: logger, progress: progress)
                    // The parent's cursor stays unless its records move it (SyncApply.applyFanOut).
                    (walked.walk.cursor, walked.walk.cursorColumn) = (
                        states[parent.key]?.cursor, states[parent.key]?.cursorColumn
                    )
                    return (index, walked)
                }
            }
            for _ in 0..<plan.concurrency { startNext() }
            var done = 0
            while let (index, walked) = try await group.next() {
                results[index] = walked
                done += 1
                progress?.parents(done: done, total: parents.count)
                startNext()
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
            let walk = ChildWalk(parent: parent, body: nil, etag: state?.etag, lastModified: state?.lastModified)
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
            let spool = pages.spool ?? BodySpool(directory: spoolDirectory)
            let body = DecodedBody(spool: spool, pages: pages.ranges, isPaged: endpoint.pagination != nil)
            return WalkedParent(
                walk: ChildWalk(
                    parent: parent, body: body, etag: response.etag, lastModified: response.lastModified),
                answer: .records, status: response.status, pages: pages.count, bytes: spool.count)
        case .notModified:
            let walk = ChildWalk(
                parent: parent, body: nil, etag: response.etag ?? state?.etag,
                lastModified: response.lastModified ?? state?.lastModified)
            return WalkedParent(walk: walk, answer: .notModified, status: response.status, pages: pages.count, bytes: 0)
        case .empty:
            // No children now; the validators go with the set they described.
            let body = DecodedBody(spool: BodySpool(directory: spoolDirectory), pages: [])
            return WalkedParent(
                walk: ChildWalk(parent: parent, body: body), answer: .empty, status: response.status,
                pages: pages.count, bytes: 0)
        case .skipped:
            let walk = ChildWalk(parent: parent, body: nil, etag: state?.etag, lastModified: state?.lastModified)
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
    /// Parents not walked because their row did not change.
    var skipped: Int
    /// Parents beyond `max_parents`, left for later runs.
    var left: Int

    init(_ inputs: FanOutInputs, plan: FanOutPlan) {
        var candidates = inputs.parents
        if plan.selection == .changed {
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
