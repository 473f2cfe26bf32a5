public import FoundationEssentials
public import SyncPersistence

extension SyncCache {
    /// What changed in an endpoint between two versions: enough to mirror it.
    public struct ChangeSet: Sendable, Hashable {
        /// The endpoint's name.
        public var endpoint: String
        /// The version the change set starts after.
        public var since: Int64
        /// The endpoint's version now: the `since` of the next change set.
        public var version: Int64
        /// The records inserted or updated after `since`, by version then key.
        public var changed: [Record]
        /// The keys deleted after `since`, as JSON: `8`, `"abc"`, or `[1,"x"]` for a composite key.
        public var deleted: [String]

        /// The keys first stored after `since`.
        public var insertedKeys: [String] { changed.filter(\.isInsert).map(\.key) }
        /// The keys stored before `since` whose record changed since.
        public var updatedKeys: [String] { changed.filter { !$0.isInsert }.map(\.key) }

        /// The changed records decoded as `T`; records that do not decode are left out.
        public func decoded<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) -> [T] {
            changed.compactMap { try? decoder.decode(T.self, from: Data($0.json.utf8)) }
        }

        /// One inserted or updated record of a change set.
        public struct Record: Sendable, Hashable {
            /// The key as JSON: `8`, `"abc"`, or `[1,"x"]` for a composite key.
            public var key: String
            /// The record as received from the upstream.
            public var json: String
            /// Whether the record was first stored after the change set's `since` (an insert) rather than updated. A row
            /// stored before syncd kept first versions (a database from an older syncd) counts as updated.
            public var isInsert: Bool
        }
    }
}

extension SyncCache {
    /// The records changed and the keys deleted after `version` (0 is everything).
    public func changes(_ endpoint: String, since version: Int64) async throws(SyncError) -> ChangeSet {
        let changes = try await readStored { reader in
            try reader.changes(of: try self.endpoint(endpoint, reader), since: version)
        }
        return ChangeSet(
            endpoint: endpoint, since: version, version: changes.version,
            changed: changes.changed.indices.map { index in
                ChangeSet.Record(
                    key: changes.changedKeys[index], json: changes.changed[index], isInsert: changes.inserted[index])
            },
            deleted: changes.deleted)
    }

    /// The endpoint's change sets as they happen: one element per sync that changed it, whoever wrote it — a
    /// daemon in another process or a sync in this one.
    ///
    /// The cache's one watcher of commits (shared with every other stream) asks the storage whether anything was
    /// committed at least every `interval` (SQLite's `data_version`, a shared-memory read); only then does the
    /// stream read the endpoint's version, and only when that moved does it read the changes. A sync by this cache
    /// wakes it at once. The stream ends with an error if a read fails, and stops when the consumer stops iterating.
    ///
    /// ```swift
    /// for try await change in cache.changeSets("users") {
    ///     print("version \(change.version): \(change.changed.count) changed, \(change.deleted.count) deleted")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: The name of the configured endpoint whose changes the stream yields.
    ///   - version: Where to start; `nil` is the current version (only later changes), 0 is everything first.
    ///   - interval: How often to look, at the longest.
    public func changeSets(
        _ endpoint: String, since version: Int64? = nil, every interval: Duration = .milliseconds(500)
    ) -> AsyncThrowingStream<ChangeSet, any Error> {
        // Read before the first read of the data: a commit after it is news to this stream.
        let first = notifier.current()
        return Self.stream { [notifier] continuation in
            var seen = first
            var since: Int64
            if let version {
                since = version
            } else {
                since = try await self.version(of: endpoint)
            }
            repeat {
                if try await self.version(of: endpoint) != since {
                    let change = try await self.changes(endpoint, since: since)
                    since = change.version
                    continuation.yield(change)
                }
                seen = await notifier.next(after: seen, lookingEvery: interval)
            } while !Task.isCancelled
            try Task.checkCancellation()
        }
    }

    /// The storage's commit counter now, for a waiter of ``nextCommit(after:lookingEvery:within:)`` to read before it
    /// reads the data it serves; `nil` when it cannot be read this moment.
    package func commitGeneration() -> Int64? {
        notifier.current()
    }

    /// Returns the commit counter as soon as it is other than `seen` (at once for a commit by this cache, else within
    /// `interval`); `nil` when `timeout` passes first or the task is cancelled. The read API's event streams and long
    /// polls wait here, on the same watcher of commits as ``changeSets(_:since:every:)``.
    package func nextCommit(
        after seen: Int64?, lookingEvery interval: Duration, within timeout: Duration? = nil
    ) async -> Int64? {
        await notifier.next(after: seen, lookingEvery: interval, within: timeout)
    }

    /// The endpoint's records decoded as `T`, first as they are now, then again after each change: a live query.
    public func values<T: Decodable & Sendable>(
        _ type: T.Type, from endpoint: String, where filters: [RecordFilter] = [], order: [RecordOrder] = [],
        every interval: Duration = .milliseconds(500), decoder: JSONDecoder = JSONDecoder()
    ) -> AsyncThrowingStream<Records<T>, any Error> {
        let decoderBox = DecoderBox(decoder: decoder)
        return Self.stream { continuation in
            let first = try await self.records(
                T.self, from: endpoint, where: filters, order: order, decoder: decoderBox.decoder)
            continuation.yield(first)
            for try await _ in self.changeSets(endpoint, since: first.version, every: interval) {
                continuation.yield(
                    try await self.records(
                        T.self, from: endpoint, where: filters, order: order, decoder: decoderBox.decoder))
            }
        }
    }

    /// A stream that `body` feeds from a task of its own: it finishes when the body returns, with the body's error
    /// when it throws (quietly when it was cancelled), and a consumer that stops iterating cancels the task.
    private static func stream<Element: Sendable>(
        _ body: @escaping @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await body(continuation)
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A JSONDecoder carried into a task: it is configured before and only read after, never mutated concurrently.
private struct DecoderBox: @unchecked Sendable {
    let decoder: JSONDecoder
}
