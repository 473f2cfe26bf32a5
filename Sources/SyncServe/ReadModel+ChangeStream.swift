internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
internal import ServiceLifecycle
internal import SyncCore
internal import Synchronization

/// The change feed live: as Server-Sent Events (`Accept: text/event-stream`), and as a long poll (`wait=`).
///
/// Both wait on the cache's one watcher of commits (``SyncCache/nextCommit(after:lookingEvery:within:)``), and read each part of the feed from the
/// database when there is one to send, as the change feed does: nothing is queued for a reader, so a slow one holds
/// no memory, and a reader that reads nothing at all is closed by the connection's send timeout.
extension ReadModel {
    /// How often the watcher of commits looks while a stream or a long poll waits: a commit by another process (or
    /// another node) is sent within this much; one by the daemon itself at once.
    static let commitLook = Duration.milliseconds(100)

    /// `GET /v1/endpoints/{name}/changes` asking for `text/event-stream`: one event per part of the feed, as it
    /// commits, each with the position of its last change as its `id`.
    ///
    /// ```
    /// id: 15.r.4031
    /// event: changes
    /// data: {"version":15,"changed":[…],"deleted":[…]}
    /// ```
    ///
    /// A reconnect's `Last-Event-ID` resumes after that position (it takes the place of `after`), with nothing missed
    /// and nothing sent twice, across restarts too: positions are the database's. A comment (`: heartbeat`) goes out
    /// after each `heartbeat` without an event, so that proxies keep an idle stream open.
    func changeStream(_ name: String, request: Request) async throws(ReadAPIError) -> Response {
        let (endpoint, _, _) = try await synced(name)
        guard !endpoint.isDocument else { throw .notCollection(name) }
        let feed = try changeFeedQuery(request)
        let slot = try streamSlot()
        // Read before the first part is: a commit after it is news to the stream.
        let seen = source.commitGeneration()
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        // nginx in front passes the events on as they come instead of buffering them.
        headers[CacheHeaders.accelBuffering] = "no"
        let start = feed
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await self.stream(endpoint, from: start, seen: seen, slot: slot, to: &writer)
            })
    }

    /// Writes the stream's events until the client goes, the endpoint is no longer configured, a read fails, or syncd
    /// shuts down.
    private func stream(
        _ endpoint: SyncCache.Endpoint, from feed: ChangeFeedQuery, seen: Int64?, slot: StreamSlot,
        to writer: inout any ResponseBodyWriter
    ) async throws {
        defer { withExtendedLifetime(slot) {} }
        var (after, seen) = (feed.after, seen)
        var unavailable = 0
        // How long a client waits before it reconnects (the EventSource default is a few seconds).
        try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
        while !Task.isCancelled, !isShuttingDown, self.isConfigured(endpoint) {
            let part: SyncCache.ChangeList
            let key = SharedParts.Key(
                endpoint: endpoint.name, since: feed.since, after: after?.description, limit: feed.limit,
                generation: seen)
            do {
                part = try await sharedParts.part(key) { [self] () async throws(ReadAPIError) in
                    try await read { reader in
                        try reader.changes(
                            of: endpoint, since: feed.since, after: key.after.flatMap(SyncCache.FeedPosition.init),
                            limit: feed.limit, maxBytes: Self.maxAnswerBytes)
                    }
                }
            } catch let error where error.status == 503 && unavailable < 50 {
                // Too many reads wait for the database this moment: the stream tries again shortly, where it was
                // (for 5 s at most; then it ends, as below).
                unavailable += 1
                try? await Task.sleep(for: Self.commitLook)
                continue
            } catch {
                // Said as a comment, the last thing before the stream ends; the client reconnects and resumes.
                try await writer.write(ByteBuffer(string: ": \(Self.eventText(error.detail))\n\n"))
                break
            }
            unavailable = 0
            if let last = part.last {
                try await writer.write(Self.event(part, id: last))
                after = last
                // A part cut at its cap: the next one follows at once.
                if part.next != nil { continue }
            }
            let known = seen
            let woken = await gracefulShutdownAware {
                await self.source.nextCommit(after: known, lookingEvery: Self.commitLook, within: self.heartbeat)
            }
            if let woken {
                seen = woken
            } else if !isShuttingDown {
                try await writer.write(ByteBuffer(staticString: ": heartbeat\n\n"))
            }
        }
        try await writer.finish(nil)
    }

    /// The long poll: returns once the endpoint has a change after `since`, or `wait` has passed; the route then
    /// answers as the change feed does. A request that continues a capped answer (`after`) has its changes already.
    func waitForChanges(_ name: String, _ feed: ChangeFeedQuery) async throws(ReadAPIError) {
        guard let wait = feed.wait, feed.after == nil, wait > .zero else { return }
        let slot = try streamSlot()
        defer { withExtendedLifetime(slot) {} }
        let deadline = ContinuousClock.now.advanced(by: wait)
        var seen = source.commitGeneration()
        while try await synced(name).1.state.version <= feed.since {
            let left = deadline - ContinuousClock.now
            guard left > .zero, !isShuttingDown else { return }
            let known = seen
            let woken = await gracefulShutdownAware {
                await self.source.nextCommit(after: known, lookingEvery: Self.commitLook, within: left)
            }
            guard let woken else { return }
            seen = woken
        }
    }

    /// The change feed's query, with `Last-Event-ID` in the place of `after` when the request has one: a stream's
    /// reconnect, or a plain request that continues from an event's `id`.
    func changeFeedQuery(_ request: Request) throws(ReadAPIError) -> ChangeFeedQuery {
        var feed = try ChangeFeedQuery(parsing: request.uri.query ?? "", maxRows: maxRows)
        guard let lastEventID = CacheHeaders.value(of: CacheHeaders.lastEventID, in: request.headers) else {
            return feed
        }
        guard let position = SyncCache.FeedPosition(lastEventID) else {
            throw .badParameter(
                "Last-Event-ID",
                "Last-Event-ID must be the id of an event of this stream, VERSION.r.ROWID or VERSION.d.ROWID; got "
                    + "\"\(lastEventID.prefix(64))\".")
        }
        // As `after` reads it: a position at or before `since` is before the feed's first change.
        feed.after = position.version > feed.since ? position : nil
        return feed
    }

    /// One of the `max_streams` places, or the 503 that says there is none.
    private func streamSlot() throws(ReadAPIError) -> StreamSlot {
        guard let slot = streams.take() else {
            throw .unavailable(
                "Too many change streams and long polls are open (max_streams = \(streams.limit)): "
                    + "try again in a moment.")
        }
        return slot
    }

    /// Whether the endpoint is still configured as it was when the stream began: a reload that removes or changes it
    /// ends the stream, whose client reconnects to the new one.
    private func isConfigured(_ endpoint: SyncCache.Endpoint) -> Bool {
        (try? self.endpoint(endpoint.name)) == endpoint
    }

    /// Whether syncd is stopping: streams end, so that the server can.
    private var isShuttingDown: Bool {
        Task.isShuttingDownGracefully
    }

    /// Runs `wait`, ended early (returning nil) when a graceful shutdown begins.
    private func gracefulShutdownAware(_ wait: @escaping @Sendable () async -> Int64?) async -> Int64? {
        await cancelWhenGracefulShutdown { await wait() }
    }

    /// One event: the part as the change feed writes it (without `next`: the stream goes on by itself).
    static func event(_ part: SyncCache.ChangeList, id: SyncCache.FeedPosition) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("id: \(id)\nevent: changes\n")
        // One `data:` line per line of the JSON: a record kept as the upstream sent it may hold line breaks between
        // its tokens, and a client joins the lines again with `\n`, which JSON reads as the same whitespace.
        let body = changesBody(part)
        for line in body.readableBytesView.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
        {
            buffer.writeStaticString("data: ")
            buffer.writeBytes(line)
            buffer.writeStaticString("\n")
        }
        buffer.writeStaticString("\n")
        return buffer
    }

    /// A sentence as one comment line: no line break can end it early.
    static func eventText(_ sentence: String) -> String {
        String(sentence.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

}

/// The places for change streams and long polls (`[server] max_streams`): one is taken while a stream is open, and
/// given back when its ``StreamSlot`` goes, however the stream ended.
final class StreamSlots: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// How many are open.
    var count: Int { open.load(ordering: .relaxed) }

    /// A place, or nil when all `limit` are taken.
    func take() -> StreamSlot? {
        while true {
            let current = open.load(ordering: .relaxed)
            guard current < limit else { return nil }
            if open.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing).exchanged
            {
                return StreamSlot(self)
            }
        }
    }

    fileprivate func giveBack() {
        open.subtract(1, ordering: .acquiringAndReleasing)
    }
}

/// One taken place of ``StreamSlots``, given back when it is released.
final class StreamSlot: Sendable {
    private let slots: StreamSlots

    fileprivate init(_ slots: StreamSlots) {
        self.slots = slots
    }

    deinit {
        slots.giveBack()
    }
}

/// Reads of the change feed that streams at the same place share: after a commit, the streams that were caught up all
/// ask for the same part, and one read answers them all instead of a thousand reads queueing for the pool.
///
/// A read is shared only by streams that knew the same generation of the storage when they asked, so none gets a part
/// read before a commit it was woken for.
final class SharedParts: Sendable {
    struct Key: Hashable, Sendable {
        var endpoint: String
        var since: Int64
        var after: String?
        var limit: Int
        var generation: Int64?
    }

    private let reads = Mutex<[Key: (task: Task<SyncCache.ChangeList, any Error>, callers: Int)]>([:])

    /// How many callers wait for the read in flight for `key` (0 when there is none).
    func callers(_ key: Key) -> Int {
        reads.withLock { $0[key]?.callers ?? 0 }
    }

    /// The part for `key`: the read in flight for it, or a new one by `read`.
    func part(
        _ key: Key, read: @escaping @Sendable () async throws(ReadAPIError) -> SyncCache.ChangeList
    ) async throws(ReadAPIError) -> SyncCache.ChangeList {
        let (task, started) = reads.withLock { reads in
            if let shared = reads[key] {
                reads[key]?.callers += 1
                return (shared.task, false)
            }
            let task = Task { () async throws -> SyncCache.ChangeList in try await read() }
            reads[key] = (task, 1)
            return (task, true)
        }
        let result = await task.result
        if started { reads.withLock { _ = $0.removeValue(forKey: key) } }
        switch result {
        case .success(let part): return part
        case .failure(let error as ReadAPIError): throw error
        case .failure(let error): throw .databaseFailed(error)
        }
    }
}
