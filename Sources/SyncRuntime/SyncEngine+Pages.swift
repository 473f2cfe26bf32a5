internal import FoundationEssentials
internal import Logging
internal import NIOCore
import SyncDecoding
import SyncHTTP
import SyncIngest
import SyncModel
internal import SyncSQLite
import SyncSupport

extension SyncEngine {
    /// Fetches every page of a collection, from `firstURL` (the endpoint's, with an incremental cursor), into one
    /// spool, each decoded as it streams in, following ``PageWalker``'s decisions. Only the first request is
    /// conditional; a 304 or another non-2xx answer there comes back for the caller to handle, while a failed later
    /// page fails the run: nothing partial is applied.
    ///
    /// - Parameter progress: Hears of each chunk's bytes and each page's end (its records, when they are counted:
    ///   not when a page is read only up to its first record), with the totals the upstream announces.
    /// - Throws: ``SyncFailure`` for an unusable page, a loop, or `max_pages` reached with more announced.
    func fetchPages(
        _ endpoint: EndpointConfiguration, url firstURL: String, validators: (etag: String?, lastModified: String?)?,
        logger: Logger, feed: SpoolFeed? = nil, progress: SyncProgress.Sink.Run? = nil, reportsTotals: Bool = true
    ) async throws -> PagedFetch {
        let name = endpoint.name.name
        // A paged body is decoded as it arrives, for what decides the next page (its records, a cursor in it), and
        // so is a GraphQL answer, for its errors; any other body is decoded only by the transaction that stores it,
        // which checks it as it goes.
        let isGraphQL = endpoint.body?.isGraphQL ?? false
        let decoder = endpoint.pagination == nil && !isGraphQL ? nil : endpoint.recordDecoder
        let captured = (endpoint.pagination?.capturedPaths ?? []) + (isGraphQL ? [RequestBody.graphQLErrorPath] : [])
        // Only whether a page is empty decides the next one: each page is read here up to its first record, and the
        // transaction that stores the records reads the rest (a page that does not decode fails the run there, and
        // the fetch stops at its next page).
        let firstRecordOnly = !isGraphQL && endpoint.pagination?.decidesOnlyByEmptiness == true
        var walker = PageWalker(pagination: endpoint.pagination, url: firstURL)
        var url = walker.firstURL
        var body = endpoint.body?.bytes
        var fetched = PagedFetch(firstResponse: FetchResponse(status: 0, body: ByteBuffer()))
        while true {
            let number = fetched.count + 1
            let context = endpoint.pagination == nil ? "" : "page \(number): "
            let request = try self.request(
                url, endpoint: endpoint, validators: number == 1 ? validators : nil, body: body)
            logger.debug("Fetching", metadata: [LogKey.page: "\(number)"])
            let start = fetched.spool?.count ?? 0
            let page: PageFetch
            do {
                page = try await retrying(endpoint, context: context) {
                    try await waitForTurn(endpoint)
                    let page = try await authorized(request, endpoint: endpoint) { request in
                        try await fetchPage(
                            request, spool: fetched.spool, from: start, decoder: decoder, capturing: captured,
                            lastRecordPath: endpoint.pagination?.lastRecordPath, readsPastFailure: isGraphQL,
                            firstRecordOnly: firstRecordOnly, feed: feed, progress: progress)
                    } response: {
                        $0.response
                    }
                    pacer.observe(page.response.rateLimit, endpoint: endpoint, now: now())
                    return page
                } response: {
                    $0.response
                }
            } catch var failure as SyncFailure {
                failure.pages = fetched.count + 1
                failure.bytes = max(failure.bytes, start)
                throw failure
            }
            fetched.count = number
            if number == 1 {
                fetched.firstResponse = page.response
                guard page.response.isSuccess else { return fetched }
            } else if !page.response.isSuccess {
                let sentence = Self.statusSentence(page.response.status, auth: endpoint.auth)
                throw SyncFailure(
                    message: "\(name): \(context)\(sentence); kept the stored data", status: page.response.status,
                    bytes: start, pages: number, retryAfter: retryAfter(page.response))
            }
            fetched.spool = page.spool
            let end = page.spool?.count ?? start
            var facts = PageWalker.Page(url: url, records: 0)
            do {
                if var probe = page.probe {
                    let records = Result { try probe.finish() }
                    let chunked = probe.decoder
                    var graphQLError = isGraphQL ? chunked.capturedValue(at: RequestBody.graphQLErrorPath) : nil
                    if isGraphQL, graphQLError == nil, case .failure = records, let spool = page.spool {
                        // GraphQL's errors usually come with a null `data`, where the decoder stopped: they say why.
                        graphQLError = try Self.graphQLError(in: spool, start..<end)
                    }
                    if let message = graphQLError {
                        throw SyncFailure(
                            message: "\(name): \(context)\(Self.graphQLSentence(message)); kept the stored data",
                            status: page.response.status, bytes: end, pages: number)
                    }
                    facts.records = try records.get()
                    for path in captured {
                        if let value = chunked.capturedValue(at: path) { facts.captured[path] = value }
                    }
                    facts.overlong = chunked.overlongCapturedPaths
                    facts.lastRecordCursor = chunked.lastRecordValue
                }
                if let previous = fetched.ranges.last, let spool = page.spool {
                    facts.repeatsPrevious = try spool.holdsSameBytes(previous, start..<end)
                }
            } catch let failure as SyncFailure {
                throw failure
            } catch {
                throw SyncFailure(
                    message: "\(name): \(context)\(error); kept the stored data", status: page.response.status,
                    bytes: end, pages: number)
            }
            if let failure = feed?.readerFailure {
                throw SyncFailure(
                    message: "\(name): \(failure); kept the stored data", status: page.response.status, bytes: end,
                    pages: number)
            }
            fetched.ranges.append(start..<end)
            feed?.pageEnded(start..<end)
            facts.links = page.response.links
            let decision = walker.next(after: facts)
            progress?.pageEnded(
                records: page.probe != nil && !firstRecordOnly ? facts.records : nil,
                totalRecords: reportsTotals ? walker.announcedTotal : nil,
                totalPages: reportsTotals ? walker.announcedPages : nil)
            switch decision {
            case .next(let next, let bodyCursor):
                url = next
                if let bodyCursor, let path = endpoint.pagination?.bodyPath {
                    // The configuration checked that the body holds a value at body_path, and the walker that the
                    // cursor is a string or a number: never a request without its body.
                    guard let json = bodyCursor.json, let replaced = endpoint.body?.replacing(path, with: json) else {
                        throw SyncFailure(
                            message: "\(name): page \(number)'s cursor cannot be written into the body at \(path); "
                                + "kept the stored data", status: page.response.status, bytes: end, pages: number)
                    }
                    body = replaced
                }
            case .done:
                return fetched
            case .failure(let sentence):
                throw SyncFailure(
                    message: "\(name): \(sentence); kept the stored data", status: page.response.status, bytes: end,
                    pages: number)
            }
        }
    }

    /// One attempt at one page: its body decoded as it streams in (with a `decoder`; with `firstRecordOnly`, up to
    /// its first record) and appended to the run's spool from `start` (what an earlier attempt left there is
    /// dropped). The spool is made on the first byte: a 304, the common answer, creates no file.
    private func fetchPage(
        _ request: FetchRequest, spool existing: BodySpool?, from start: Int, decoder: RecordDecoder?,
        capturing paths: [JSONPath], lastRecordPath: JSONPath?, readsPastFailure: Bool, firstRecordOnly: Bool,
        feed: SpoolFeed?, progress: SyncProgress.Sink.Run?
    ) async throws -> PageFetch {
        let probe = decoder.map {
            PageProbe(
                decoder: $0, capturing: paths, lastRecordPath: lastRecordPath, firstRecordOnly: firstRecordOnly,
                readsPastFailure: readsPastFailure)
        }
        var receiver = PageReceiver(
            spool: existing, from: start, directory: spoolDirectory, limit: spoolLimit, feed: feed, probe: probe)
        let response = try await transport.fetch(request) { chunk in
            try receiver.append(chunk)
            progress?.received(bytes: chunk.readableBytes)
            try receiver.probe(chunk)
        }
        return PageFetch(response: response, spool: receiver.spool, probe: receiver.pageProbe)
    }
}

extension SyncEngine {
    /// The run's failure for a GraphQL answer with errors: the first one's message, at most 300 characters, its
    /// control characters escaped.
    /// The first GraphQL error's message in a page of the spool, read whatever the rest of the page holds.
    static func graphQLError(in spool: BodySpool, _ range: Range<Int>) throws -> CapturedValue? {
        var envelope = EnvelopeCapture(paths: [RequestBody.graphQLErrorPath])
        try spool.forEachChunk(in: range) { envelope.feed($0.assumingMemoryBound(to: UInt8.self)) }
        envelope.finish()
        return envelope.value(at: RequestBody.graphQLErrorPath)
    }

    static func graphQLSentence(_ message: CapturedValue) -> String {
        guard case .string(let text) = message else { return "the GraphQL answer holds errors" }
        let shown = text.count > 300 ? String(text.prefix(300)) + "…" : text
        return "the GraphQL answer holds errors: \"\(ControlCharacters.escaped(shown, .log))\""
    }
}

/// Every page of one run: the first page's answer (whose validators are stored), the spool holding the bodies, one
/// range of it per page.
struct PagedFetch {
    var firstResponse: FetchResponse
    var spool: BodySpool?
    var ranges: [Range<Int>] = []
    /// Responses received, a 304 included.
    var count = 0
}

/// One attempt at one page: the answer, the spool and, for a paged body, what was read of it after the last byte.
private struct PageFetch {
    var response: FetchResponse
    var spool: BodySpool?
    var probe: PageProbe?
}
