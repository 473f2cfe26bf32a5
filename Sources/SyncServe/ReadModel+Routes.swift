internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
internal import SyncCore

/// The cached routes: records, one record, changes and a document, each answered through a ``SyncCache/Reader``.
extension ReadModel {
    /// `GET /v1/endpoints/{name}/records?…` and `GET /rest/{name}?…`.
    func records(_ name: String, request: Request) async throws(ReadAPIError) -> Response {
        let (endpoint, served, snapshot) = try await synced(name)
        guard !endpoint.isDocument else { throw .notCollection(name) }
        let queryText = request.uri.query ?? ""
        if let kept = keptRecords(endpoint, served, snapshot, query: queryText, request: request.headers) {
            return kept.response
        }
        let counting = Self.isCounting(request.headers)
        let key = Self.recordsKey(name, query: queryText, counting: counting)
        let maxRows = self.maxRows
        return try await respond(key, endpoint, served, snapshot, request) { () async throws(ReadAPIError) in
            // PostgREST's db-max-rows: no answer holds more than max_rows records, whatever `limit` asks.
            let parsed = try PostgRESTQuery(parsing: queryText, for: endpoint, maxRows: maxRows)
            // The body is built on the read thread too: the cooperative threads only send it.
            let (page, count, body) = try await read(parameter: Self.parameter(for: parsed)) { reader in
                let page = try reader.records(
                    of: endpoint, parsed.query, countingAll: counting, maxBytes: Self.maxAnswerBytes)
                let (body, count) = Self.recordsBody(page, select: parsed.select, endpoint: endpoint)
                // Only the page's validators leave the read thread: its records are in the body.
                return (
                    (etag: page.etag, version: page.version, changedAt: page.changedAt, total: page.total), count, body
                )
            }
            var built = Representation(
                body: body, contentType: Self.json, etag: page.etag, changedAt: page.changedAt,
                instance: snapshot.instance, endpointVersion: page.version)
            built.contentRange = Self.contentRange(offset: parsed.query.offset, count: count, total: page.total)
            return built
        }
    }

    /// `GET /v1/endpoints/{name}/records/{id}`: a composite key is `a,b`.
    func record(_ name: String, id: String, request: Request) async throws(ReadAPIError) -> Response {
        let (endpoint, served, snapshot) = try await synced(name)
        guard !endpoint.isDocument else { throw .notCollection(name) }
        let key = RepresentationCache.Key(endpoint: name, route: .record, argument: id)
        return try await respond(key, endpoint, served, snapshot, request) { () async throws(ReadAPIError) in
            let parts =
                endpoint.primaryKey.count == 1
                ? [id] : id.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let record = try await read(parameter: "id") { reader in try reader.record(of: endpoint, key: parts) }
            guard let record else {
                throw .notFound("The endpoint \(name) has no record with the key \(id).")
            }
            return Representation(
                body: ByteBuffer(string: record.json), contentType: Self.json, etag: record.etag,
                changedAt: record.changedAt, instance: snapshot.instance, endpointVersion: record.endpointVersion)
        }
    }

    /// `GET /v1/endpoints/{name}/changes?since=VERSION`.
    ///
    /// With `Accept: text/event-stream` it is the live stream (``changeStream(_:request:)``); with `wait=` a long
    /// poll, answered when a change after `since` exists (``waitForChanges(_:_:)``).
    func changes(_ name: String, request: Request) async throws(ReadAPIError) -> Response {
        if AcceptHeader.wantsEventStream(request.headers[.accept]) {
            return try await changeStream(name, request: request)
        }
        var synced = try await synced(name)
        guard !synced.0.isDocument else { throw .notCollection(name) }
        let feed = try changeFeedQuery(request)
        if feed.wait != nil {
            try await waitForChanges(name, feed)
            synced = try await self.synced(name)
        }
        let (endpoint, served, snapshot) = synced
        let key = RepresentationCache.Key(endpoint: name, route: .changes, argument: feed.cacheArgument)
        return try await respond(key, endpoint, served, snapshot, request) { () async throws(ReadAPIError) in
            let (changes, body) = try await read(parameter: "since") { reader in
                let changes = try reader.changes(
                    of: endpoint, since: feed.since, after: feed.after, limit: feed.limit,
                    maxBytes: Self.maxAnswerBytes)
                let body = Self.changesBody(changes, next: changes.next.map { feed.link(endpoint: name, after: $0) })
                // Only the part's validators leave the read thread: its changes are in the body.
                return (
                    (etag: changes.etag, changedAt: changes.changedAt, endpointVersion: changes.endpointVersion), body
                )
            }
            return Representation(
                body: body, contentType: Self.json, etag: changes.etag, changedAt: changes.changedAt,
                instance: snapshot.instance, endpointVersion: changes.endpointVersion)
        }
    }

    /// `GET /v1/endpoints/{name}/document`.
    func document(_ name: String, request: Request) async throws(ReadAPIError) -> Response {
        let (endpoint, served, snapshot) = try await synced(name)
        guard endpoint.isDocument else { throw .notDocument(name) }
        let key = RepresentationCache.Key(endpoint: name, route: .document, argument: "")
        return try await respond(key, endpoint, served, snapshot, request) { () async throws(ReadAPIError) in
            let document = try await read { reader in try reader.document(of: endpoint) }
            guard let document else {
                throw .notFound("The endpoint \(name) has not been synced yet: there is nothing cached to serve.")
            }
            return Representation(
                body: ByteBuffer(bytes: document.body), contentType: document.contentType ?? Self.json,
                etag: document.etag, changedAt: document.changedAt, instance: snapshot.instance,
                endpointVersion: document.endpointVersion)
        }
    }

    /// The answer from the representation kept for `key` while its endpoint's version holds; else from `build`,
    /// which is then kept.
    private func respond(
        _ key: RepresentationCache.Key, _ endpoint: SyncCache.Endpoint, _ served: Served, _ snapshot: Snapshot,
        _ request: Request, build: () async throws(ReadAPIError) -> Representation
    ) async throws(ReadAPIError) -> Response {
        if let kept = kept(key, endpoint, served, snapshot, request: request.headers) { return kept.answer.response }
        let representation = try await build()
        cache.store(key, representation)
        return KeptAnswer(representation, freshness: freshness(endpoint, served), request: request.headers, now: now())
            .answer.response
    }

    // MARK: Answers from memory
    //
    // What follows answers without reading the database or awaiting anything. The routes above call it first, and
    // the event loop's fast path (``ReadFastPath``) calls it alone, so both send the same answer for a request.

    /// A list answered from memory: a revalidation of the endpoint's tag (a list's tag is the endpoint's version,
    /// so no row is read), or a page kept from an earlier request with the same query.
    func keptRecords(
        _ endpoint: SyncCache.Endpoint, _ served: Served, _ snapshot: Snapshot, query: String, request: HTTPFields
    ) -> Answer? {
        recordsFromMemory(endpoint, served, snapshot, query: query, request: request)?.answer
    }

    /// ``keptRecords(_:_:_:query:request:)`` before it is made an answer, for the fast path.
    func recordsFromMemory(
        _ endpoint: SyncCache.Endpoint, _ served: Served, _ snapshot: Snapshot, query: String, request: HTTPFields
    ) -> MemoryAnswer? {
        // A 304 answers only what would otherwise be a 200 (RFC 9110 §13.2.1): a malformed query is the router's 400
        // whatever If-None-Match says. Parsing it reads no row.
        if request.contains(.ifNoneMatch),
            CacheHeaders.isNotModified(request, etag: served.etag, lastModified: nil, now: now()),
            query.isEmpty || (try? PostgRESTQuery(parsing: query, for: endpoint, maxRows: maxRows)) != nil
        {
            return .made(
                Answer(
                    status: .notModified,
                    headers: CacheHeaders.fields(
                        etag: served.etag, lastModified: served.lastModified, freshness: freshness(endpoint, served)),
                    body: nil))
        }
        let key = Self.recordsKey(endpoint.name, query: query, counting: Self.isCounting(request))
        return kept(key, endpoint, served, snapshot, request: request).map(MemoryAnswer.kept)
    }

    /// One record answered from memory, when its representation is kept (the fast path's; the router's route
    /// looks the same representation up in ``respond(_:_:_:_:_:build:)``).
    func recordFromMemory(
        _ endpoint: SyncCache.Endpoint, _ served: Served, _ snapshot: Snapshot, id: String, request: HTTPFields
    ) -> MemoryAnswer? {
        kept(
            RepresentationCache.Key(endpoint: endpoint.name, route: .record, argument: id), endpoint, served,
            snapshot, request: request
        ).map(MemoryAnswer.kept)
    }

    /// The representation kept for `key`, if it was built at the snapshot's endpoint version, with what its answer
    /// to `request` depends on besides it.
    private func kept(
        _ key: RepresentationCache.Key, _ endpoint: SyncCache.Endpoint, _ served: Served, _ snapshot: Snapshot,
        request: HTTPFields
    ) -> KeptAnswer? {
        guard let representation = cache.lookup(key, instance: snapshot.instance, endpointVersion: served.state.version)
        else { return nil }
        return KeptAnswer(representation, freshness: freshness(endpoint, served), request: request, now: now())
    }

    /// PostgREST clients ask for the total with `Prefer: count=exact` and read it from Content-Range.
    static func isCounting(_ request: HTTPFields) -> Bool {
        request[CacheHeaders.prefer].map { $0.contains("count=") } ?? false
    }

    /// A list's key: its query as written, and whether the total was asked for.
    static func recordsKey(_ name: String, query: String, counting: Bool) -> RepresentationCache.Key {
        RepresentationCache.Key(endpoint: name, route: .records, argument: counting ? query + "#count" : query)
    }

    static let json = "application/json"

    /// An answer stops once the records it holds reach this many bytes of JSON (at least one record is sent), so
    /// that `max_rows` wide records cannot make one answer huge; `Content-Range` and the change feed's `next` say
    /// where it stopped.
    static let maxAnswerBytes = 8 << 20

    /// `0-9/*`, `20-29/125`, or `*/125` for an empty page (PostgREST's form).
    static func contentRange(offset: Int, count: Int, total: Int?) -> String {
        let range = count == 0 ? "*" : "\(offset)-\(offset + count - 1)"
        return "\(range)/\(total.map(String.init) ?? "*")"
    }

    /// Which parameter a value error comes from: the filters are the only parameters whose values reach SQL.
    private static func parameter(for parsed: PostgRESTQuery) -> String {
        parsed.query.filters.first?.column ?? "query"
    }

    /// `[record,…]` from the original JSON, or `[{"col":value,…},…]` for a `select` of columns, and how many
    /// records it holds. A selection stops once it holds `maxBytes` (at least one record), counted as written: its
    /// objects repeat the column names and need not be smaller than the records the reader budgeted.
    static func recordsBody(
        _ page: SyncCache.RecordList, select: [String]?, endpoint: SyncCache.Endpoint, maxBytes: Int = maxAnswerBytes
    ) -> (body: ByteBuffer, count: Int) {
        var buffer: ByteBuffer
        var count = 0
        if let select {
            let indices = select.compactMap { name in endpoint.columns.firstIndex { $0.name == name } }
            buffer = ByteBuffer()
            buffer.writeStaticString("[")
            for index in page.json.indices {
                if count > 0 {
                    guard buffer.readableBytes < maxBytes else { break }
                    buffer.writeStaticString(",")
                }
                buffer.writeString(page.object(at: index, columns: indices))
                count += 1
            }
        } else {
            let records = page.json
            buffer = ByteBufferAllocator().buffer(capacity: records.reduce(2) { $0 + $1.utf8.count + 1 })
            buffer.writeStaticString("[")
            // The reader stopped once the records reached the budget: they are what is written.
            for raw in records {
                if count > 0 { buffer.writeStaticString(",") }
                buffer.writeString(raw)
                count += 1
            }
        }
        buffer.writeStaticString("]")
        return (buffer, count)
    }

    /// `{"version":N,"changed":[record,…],"deleted":[key,…]}`, and `"next":"…"` when the feed goes on.
    static func changesBody(_ changes: SyncCache.ChangeList, next: String? = nil) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("{\"version\":\(changes.version),\"changed\":[")
        for (number, raw) in changes.changed.enumerated() {
            if number > 0 { buffer.writeStaticString(",") }
            buffer.writeString(raw)
        }
        buffer.writeStaticString("],\"deleted\":[")
        for (number, key) in changes.deleted.enumerated() {
            if number > 0 { buffer.writeStaticString(",") }
            buffer.writeString(key)
        }
        buffer.writeStaticString("]")
        if let next {
            buffer.writeStaticString(",\"next\":")
            buffer.writeString(SyncCache.SQLValue.text(next).json)
        }
        buffer.writeStaticString("}")
        return buffer
    }
}
