internal import FoundationEssentials
package import Logging
internal import NIOCore
import SyncDecoding
package import SyncHTTP
import SyncIngest
package import SyncModel
package import SyncPersistence
internal import SyncSQLite
import SyncSupport

/// Runs syncs: for each endpoint, one conditional fetch, a decoding pass that validates the body,
/// then one atomic apply in the storage (``SyncStorage``). Upstream problems never throw: they end as a
/// failed run in the report and in the run history, and the stored data stays exactly as it was.
package struct SyncEngine: Sendable {
    package var storage: any SyncStorage
    package var transport: any Transport
    /// Where secrets named by `*_env` come from.
    package var environment: [String: String]
    /// Seconds since 1970, injected so that tests control time.
    package var now: @Sendable () -> Double
    package var logger: Logger
    /// Waits between the attempts of one run; injected so that tests control time.
    package var sleep: @Sendable (Duration) async throws -> Void
    /// Spaces each endpoint's requests, across its runs too.
    package let pacer = RequestPacer()
    /// The most bytes the pages of one run hold together on disk. The default is ``BodySpool/runLimit``.
    package var spoolLimit = BodySpool.runLimit
    /// The OAuth2 tokens of the endpoints, shared by those with the same client.
    package var tokens: OAuth2Tokens
    /// Where runs report how far they have come; nil, the default, counts nothing.
    package var progress: SyncProgress.Sink?

    /// - Parameter tokens: The OAuth2 tokens of the HTTP client the engine shares (``APIClient``'s); by default, the
    ///   engine's own, asked through `transport`.
    package init(
        storage: any SyncStorage,
        transport: any Transport,
        environment: [String: String],
        logger: Logger,
        now: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        tokens: OAuth2Tokens? = nil
    ) {
        self.storage = storage
        self.transport = transport
        self.environment = environment
        self.logger = logger
        self.now = now
        self.sleep = sleep
        self.tokens = tokens ?? OAuth2Tokens(transport: transport, now: now)
    }

    /// Syncs endpoints, at most `concurrency` at once; reports come back in the endpoints' order.
    ///
    /// - Parameter onReport: Called as each endpoint finishes, for progress output.
    package func sync(
        _ endpoints: [EndpointConfiguration],
        concurrency: Int,
        onReport: @escaping @Sendable (SyncSummary) -> Void = { _ in }
    ) async -> [SyncSummary] {
        // A child endpoint runs after its parent: the endpoints go in waves, parents first.
        let waves = FanOutLink.waves(endpoints)
        guard waves.count > 1 else { return await syncWave(endpoints, concurrency: concurrency, onReport: onReport) }
        var reports = [SyncSummary?](repeating: nil, count: endpoints.count)
        for wave in waves {
            let done = await syncWave(wave.map { endpoints[$0] }, concurrency: concurrency, onReport: onReport)
            for (index, report) in zip(wave, done) { reports[index] = report }
        }
        return reports.compactMap { $0 }
    }

    /// Syncs endpoints, at most `concurrency` at once; reports come back in the endpoints' order.
    private func syncWave(
        _ endpoints: [EndpointConfiguration], concurrency: Int, onReport: @escaping @Sendable (SyncSummary) -> Void
    ) async -> [SyncSummary] {
        await withTaskGroup(of: (Int, SyncSummary).self) { group in
            var reports = [SyncSummary?](repeating: nil, count: endpoints.count)
            var next = 0
            func startNext() {
                guard next < endpoints.count else { return }
                let index = next
                let endpoint = endpoints[index]
                next += 1
                // On the event loop its answers arrive on, as the scheduler's runs (see EventLoopTaskExecutor).
                group.addTask(executorPreference: transport.nextRunExecutor()) { (index, await self.sync(endpoint)) }
            }
            for _ in 0..<max(1, concurrency) { startNext() }
            while let (index, report) = await group.next() {
                reports[index] = report
                onReport(report)
                startNext()
            }
            return reports.compactMap { $0 }
        }
    }

    /// Syncs one endpoint.
    ///
    /// A failure is logged at debug only: the report carries it, and the caller says it once (`syncd run` logs a
    /// warning, `syncd sync` prints the sentence).
    ///
    /// - Parameter dueAt: When the scheduler wanted the run to start, for syncd_runs.due_at and the report's
    ///   ``SyncSummary/lateSeconds``; `nil` when nobody scheduled it.
    /// - Parameter claim: The claim the scheduler holds on the endpoint, when nodes share the storage.
    /// - Parameter parents: For a child endpoint, the only parents to walk, by key (a webhook named them); nil walks
    ///   the parents its options choose.
    /// - Parameter fetched: Called once a collection's answer is in (every page spooled, or the fetch failed), before
    ///   it is stored: the scheduler's slot can then fetch for another endpoint. Not called for a document, whose
    ///   body waits in memory rather than in a spool.
    package func sync(
        _ endpoint: EndpointConfiguration, dueAt: Double? = nil, claim: String? = nil, parents: Set<String>? = nil,
        fetched: @Sendable () -> Void = {}
    ) async -> SyncSummary {
        let startedAt = now()
        let counting = progress?.begin(endpoint.name.name)
        defer { counting?.end() }
        var report = await sync(
            endpoint, run: SyncRun(endpoint: endpoint, dueAt: dueAt, claim: claim, parents: parents),
            startedAt: startedAt,
            progress: counting, fetched: fetched)
        report.lateSeconds = dueAt.map { max(0, startedAt - $0) }
        return report
    }

    private func sync(
        _ endpoint: EndpointConfiguration, run: SyncRun, startedAt: Double, progress: SyncProgress.Sink.Run?,
        fetched: @Sendable () -> Void
    ) async -> SyncSummary {
        var logger = self.logger
        logger[metadataKey: LogKey.endpointName] = "\(endpoint.name.name)"
        do {
            let report = try await self.run(
                endpoint, run: run, startedAt: startedAt, logger: logger, progress: progress, fetched: fetched)
            if !report.newDrift.isEmpty { logger.notice("Schema drift", metadata: Self.driftMetadata(report)) }
            return report
        } catch let failure as SyncFailure {
            logger.debug("Sync failed", metadata: [LogKey.error: "\(failure.message)"])
            return await record(failure, run: run, startedAt: startedAt)
        } catch let error as StoreError {
            // A store refusal outside a collection's apply (a document, a 304): its sentence, not "the database failed".
            let failure = SyncFailure(message: "\(endpoint.name.name): \(error)", status: nil, bytes: 0)
            logger.debug("Sync failed", metadata: [LogKey.error: "\(failure.message)"])
            return await record(failure, run: run, startedAt: startedAt)
        } catch is CancellationError {
            let failure = SyncFailure(
                message: "\(endpoint.name.name): stopped before the sync finished; kept the stored data", status: nil,
                bytes: 0)
            return await record(failure, run: run, startedAt: startedAt)
        } catch {
            // The database itself failed (disk full, locked for too long): say so; nothing was applied.
            let failure = SyncFailure(
                message: "\(endpoint.name.name): the database failed: \(error)", status: nil, bytes: 0)
            logger.debug("Sync failed", metadata: [LogKey.error: "\(failure.message)"])
            return await record(failure, run: run, startedAt: startedAt)
        }
    }

    private func record(_ failure: SyncFailure, run: SyncRun, startedAt: Double) async -> SyncSummary {
        let facts = RunFacts(
            startedAt: startedAt, finishedAt: now(), httpStatus: failure.status, bytes: failure.bytes,
            pages: failure.pages)
        var run = run
        run.failedFanOut = failure.fanOut
        do {
            // Even when cancelled (the daemon stopping): how the run ended is recorded.
            var report = try await storage.recordFailure(
                failure.message, outcome: failure.outcome, run: run, facts: facts)
            report.retryAfter = failure.retryAfter
            return report
        } catch {
            var report = SyncSummary(endpoint: run.endpoint.name.name, outcome: failure.outcome)
            report.error = failure.message + " (and recording the failure failed too: \(error))"
            report.httpStatus = failure.status
            return report
        }
    }

    private func run(
        _ endpoint: EndpointConfiguration, run: SyncRun, startedAt: Double, logger: Logger,
        progress: SyncProgress.Sink.Run?, fetched: @Sendable () -> Void
    ) async throws -> SyncSummary {
        let name = endpoint.name.name
        if endpoint.declared.parent != nil {
            return try await runFanOut(
                endpoint, run: run, startedAt: startedAt, logger: logger, progress: progress, fetched: fetched)
        }
        let state = try await storage.state(of: name)
        let validators = state.map { (etag: $0.etag, lastModified: $0.lastModified) }
        if endpoint.isDocument {
            let request = try self.request(endpoint.url, endpoint: endpoint, validators: validators)
            logger.debug("Fetching")
            return try await fetchDocument(
                endpoint, request: request, run: run, startedAt: startedAt, progress: progress)
        }
        let url = IncrementalCursor.url(
            endpoint.url, of: endpoint, stored: state?.cursor, storedColumn: state?.cursorColumn)
        // The records are stored while the body arrives, in a transaction that starts with its first bytes: the
        // fetch produces, the transaction consumes, both children of this run.
        let feed = SpoolFeed(isPaged: endpoint.pagination != nil)
        async let streamed = feed.consume { body in await applyWhileFetching(body, run: run, startedAt: startedAt) }
        let pages: PagedFetch
        do {
            pages = try await fetchPages(
                endpoint, url: url, validators: validators, logger: logger, feed: feed, progress: progress)
        } catch {
            fetched()
            feed.fail()
            _ = await streamed
            throw error
        }
        fetched()
        let response = pages.firstResponse
        let freshness = upstreamFreshness(response, endpoint: endpoint)
        let bytes = pages.spool?.count ?? 0
        let facts = self.facts(response, startedAt: startedAt, bytes: bytes, pages: pages.count)
        if response.isSuccess, pages.spool != nil {
            feed.close(with: facts())
        } else {
            feed.fail()
        }
        if let report = await streamed { return report.answered(freshness) }
        if let answered = try await applyUnlessSuccess(response, endpoint: endpoint, run: run, facts: facts) {
            return answered.answered(freshness)
        }
        let body = pages.spool ?? BodySpool(directory: spoolDirectory)
        // Stored after the fetch: the body had no bytes, or the transaction that stored them as they came gave way.
        let decoded = DecodedBody(spool: body, pages: pages.ranges, isPaged: endpoint.pagination != nil)
        do {
            return try await storage.applyCollection(decoded, run: run, facts: facts).answered(freshness)
        } catch  where error is BodyDecodingError || error is PageDecodingError {
            // The body, decoded as it is stored, is not what the endpoint's records should be.
            throw SyncFailure(
                message: "\(name): \(error); kept the stored data", status: response.status, bytes: bytes,
                pages: pages.count)
        } catch let error as StoreError where error == .emptySnapshot || error == .tooManyDeletions {
            throw SyncFailure(message: error.description, status: response.status, bytes: bytes, outcome: .refused)
        } catch let error as StoreError {
            throw SyncFailure(message: "\(name): \(error)", status: response.status, bytes: bytes)
        }
    }

    /// Stores the records of a body as it arrives, from its first bytes: the report, or nil when the
    /// fetch failed, or the transaction gave way or failed (the caller then stores the whole spool, or records the
    /// failure, as it would have without streaming).
    private func applyWhileFetching(_ body: DecodedBody, run: SyncRun, startedAt: Double) async -> SyncSummary? {
        let facts: @Sendable () -> RunFacts = { [now] in RunFacts(startedAt: startedAt, finishedAt: now()) }
        do {
            var report = try await storage.applyCollection(body, run: run, facts: facts)
            report.storedWhileFetching = true
            return report
        } catch {
            return nil
        }
    }

    /// What a run's new schema drift says in the log, once: the first ten observations, and where to see them all.
    static func driftMetadata(_ report: SyncSummary) -> Logger.Metadata {
        let observations = report.newDrift.map { ControlCharacters.escaped($0.sentence, .log) }
        var text = observations.prefix(10).joined(separator: ", ")
        if observations.count > 10 { text += " and \(observations.count - 10) more" }
        return ["drift": "\(text)", "see": "syncd drift \(report.endpoint)"]
    }

    /// What a 304 or a non-2xx answer does, for collections and documents alike: the report of a 304 or of a status
    /// `on_status` maps (``applyMappedStatus(_:endpoint:run:facts:)``), a thrown failure for any other non-2xx, and
    /// `nil` for a 2xx, whose body the caller applies.
    func applyUnlessSuccess(
        _ response: FetchResponse, endpoint: EndpointConfiguration, run: SyncRun,
        facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary? {
        if response.isNotModified {
            do {
                return try await storage.applyNotModified(run: run, facts: facts)
            } catch let error as StoreError {
                throw SyncFailure(
                    message: "\(endpoint.name.name): \(error)", status: response.status, bytes: 0)
            }
        }
        guard response.isSuccess else {
            if let mapped = try await applyMappedStatus(response, endpoint: endpoint, run: run, facts: facts) {
                return mapped
            }
            let sentence = Self.statusSentence(response.status, auth: endpoint.auth)
            throw SyncFailure(
                message: "\(endpoint.name.name): \(sentence); kept the stored data", status: response.status,
                bytes: response.body.readableBytes, retryAfter: retryAfter(response))
        }
        return nil
    }

    /// A document endpoint: the whole body is one resource, read in full.
    private func fetchDocument(
        _ endpoint: EndpointConfiguration, request: FetchRequest, run: SyncRun, startedAt: Double,
        progress: SyncProgress.Sink.Run?
    ) async throws -> SyncSummary {
        let response = try await retrying(endpoint) {
            try await waitForTurn(endpoint)
            let response = try await authorized(request, endpoint: endpoint) {
                try await transport.fetch($0, successBody: nil)
            } response: {
                $0
            }
            pacer.observe(response.rateLimit, endpoint: endpoint, now: now())
            return response
        } response: {
            $0
        }
        progress?.received(bytes: response.body.readableBytes)
        progress?.pageEnded(records: nil, totalRecords: nil, totalPages: nil)
        let facts = self.facts(response, startedAt: startedAt, bytes: response.body.readableBytes)
        let freshness = upstreamFreshness(response, endpoint: endpoint)
        if let answered = try await applyUnlessSuccess(response, endpoint: endpoint, run: run, facts: facts) {
            return answered.answered(freshness)
        }
        if JSONDocumentCheck.isJSON(contentType: response.contentType) {
            do {
                try response.body.withUnsafeReadableBytes { bytes in try JSONDocumentCheck.validate(bytes) }
            } catch {
                throw SyncFailure(
                    message: "\(endpoint.name.name): \(error), though its Content-Type says JSON; kept the stored "
                        + "document", status: response.status, bytes: response.body.readableBytes)
            }
        }
        return try await storage.applyDocument(response.body, contentType: response.contentType, run: run, facts: facts)
            .answered(freshness)
    }

    /// The run's facts, timed when the transaction starts.
    private func facts(_ response: FetchResponse, startedAt: Double, bytes: Int, pages: Int? = nil)
        -> @Sendable () -> RunFacts
    {
        { [now] in
            RunFacts(
                startedAt: startedAt, finishedAt: now(), httpStatus: response.status, etag: response.etag,
                lastModified: response.lastModified, bytes: bytes, pages: pages)
        }
    }

    /// What the answer says of its freshness, read only for an endpoint it times (`freshness = "upstream"`): a 304
    /// poll of any other endpoint parses no header it would not use.
    private func upstreamFreshness(_ response: FetchResponse, endpoint: EndpointConfiguration) -> UpstreamFreshness? {
        endpoint.declared.freshness == .upstream ? UpstreamFreshness(headers: response.headers, now: now()) : nil
    }

    /// Bodies are spooled where the storage says: the same disk as the data.
    var spoolDirectory: String { storage.spoolDirectory }

    static func statusSentence(_ status: Int, auth: Credential?) -> String {
        let reason = HTTPStatusText.reason(status)
        switch status {
        case 401 where auth?.oauth2 != nil:
            return "HTTP 401 \(reason): the upstream refused the OAuth2 access token, and the one renewed for it too"
        case 401, 403:
            if let auth { return "HTTP \(status) \(reason): the upstream refused the \(auth.kindName) credentials" }
            return "HTTP \(status) \(reason): the upstream wants credentials (configure auth)"
        default:
            return "HTTP \(status) \(reason) from the upstream"
        }
    }
}

extension SyncSummary {
    /// The summary with what the upstream's answer said of its freshness, for the scheduler.
    fileprivate func answered(_ freshness: UpstreamFreshness?) -> SyncSummary {
        var summary = self
        summary.upstreamFreshness = freshness
        return summary
    }
}
