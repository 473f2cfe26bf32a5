public import FoundationEssentials
public import SyncPersistence
import SyncSupport
internal import Synchronization

/// Reading: typed records decoded from the JSON syncd stored as received, each with its entity tag, and cheap
/// "changed since?" checks.
extension SyncCache {
    /// The records of a collection endpoint that match `filters`, decoded as `T` from the JSON as received.
    ///
    /// A record that does not decode as `T` never sinks the others: it is left out and described in
    /// ``Records/failures``.
    ///
    /// - Parameters:
    ///   - type: The type each record's JSON is decoded as.
    ///   - endpoint: The name of the collection endpoint to read.
    ///   - filters: Conditions on configured columns, all of which must hold.
    ///   - order: Configured columns to sort by; by primary key when empty.
    ///   - limit: The most records to read; nil, the default, reads them all.
    ///   - offset: How many matching records to skip first; a negative offset skips none.
    ///   - decoder: The decoder each record's JSON goes through.
    /// - Throws: ``SyncError``: an unknown endpoint or column, an endpoint never synced, a read failure.
    public func records<T: Decodable>(
        _ type: T.Type, from endpoint: String, where filters: [RecordFilter] = [], order: [RecordOrder] = [],
        limit: Int? = nil, offset: Int = 0, decoder: JSONDecoder = JSONDecoder()
    ) async throws(SyncError) -> Records<T> {
        let query = RecordQuery(
            filters: filters, order: order, limit: limit, offset: max(0, offset))
        let page = try await readStored { reader in try reader.records(of: try self.endpoint(endpoint, reader), query) }
        var values: [T] = []
        var failures: [DecodingFailure] = []
        values.reserveCapacity(page.raws.count)
        for (index, raw) in page.raws.enumerated() {
            let data = Data(raw.utf8)
            do {
                values.append(try decoder.decode(T.self, from: data))
            } catch {
                failures.append(DecodingFailure(collection: endpoint, index: index, element: data, error: error))
            }
        }
        return Records(
            values: values, failures: failures, etag: page.etag, version: page.version,
            changedAt: Self.date(page.changedAt))
    }

    /// One record by its key (one value per key column, as text), or `nil` when no record has it.
    public func record<T: Decodable>(
        _ type: T.Type, from endpoint: String, key: String..., decoder: JSONDecoder = JSONDecoder()
    ) async throws(SyncError) -> Cached<T>? {
        let record = try await readStored { reader in
            try reader.record(of: try self.endpoint(endpoint, reader), key: key)
        }
        guard let record else { return nil }
        return Cached(
            value: try Self.decode(T.self, Data(record.raw.utf8), decoder: decoder, what: "\(endpoint) \(key)"),
            etag: record.etag, version: record.version,
            changedAt: Self.date(record.changedAt))
    }

    /// A document endpoint's body decoded as `T`, or `nil` before its first sync.
    public func document<T: Decodable>(
        _ type: T.Type, from endpoint: String, decoder: JSONDecoder = JSONDecoder()
    ) async throws(SyncError) -> Cached<T>? {
        let document = try await readStored { reader in try reader.document(of: try self.endpoint(endpoint, reader)) }
        guard let document else { return nil }
        return Cached(
            value: try Self.decode(T.self, Data(document.body), decoder: decoder, what: endpoint),
            etag: document.etag, version: document.version,
            changedAt: Self.date(document.changedAt))
    }

    /// Whether an endpoint's data changed since the answer that carried `etag` (a list's, a document's or a
    /// ``Records``' tag): one small query, no records read. A tag from another database is always modified.
    public func isModified(_ endpoint: String, since etag: String) async throws(SyncError) -> Bool {
        let current = try await readStored { reader -> String in
            guard let state = try reader.state(of: endpoint) else { throw StoreError.unknownEndpoint(endpoint) }
            return try reader.tags().tag(state)
        }
        return !EntityTag.ifNoneMatch(etag, matches: current)
    }

    /// The endpoint's current version: what a ``changes(_:since:)`` reader starts from.
    public func version(of endpoint: String) async throws(SyncError) -> Int64 {
        try await readStored { reader in
            guard let state = try reader.state(of: endpoint) else { throw StoreError.unknownEndpoint(endpoint) }
            return state.version
        }
    }

    /// The schema-drift journal of one endpoint, or of every endpoint when `endpoint` is nil: fields the upstream
    /// sends that no column maps, configured paths a whole run lacked, and JSON types never seen at a path before.
    ///
    /// ```swift
    /// for drift in try await cache.drift("users") where drift.kind == .typeChange {
    ///     print(drift.path, drift.detail ?? "", drift.example ?? "")
    /// }
    /// ```
    ///
    /// - Throws: ``SyncError/unknownEndpoint`` for an endpoint never synced.
    public func drift(_ endpoint: String? = nil) async throws(SyncError) -> [SchemaDrift] {
        try await readStored { reader in
            if let endpoint, try reader.state(of: endpoint) == nil { throw StoreError.unknownEndpoint(endpoint) }
            return try reader.drift(endpoint: endpoint)
        }
    }

    /// Runs a read where the storage reads, with errors as ``SyncError``.
    func readStored<Result: Sendable>(
        _ body: @escaping @Sendable (any StorageReader) throws -> Result
    ) async throws(SyncError) -> Result {
        do {
            return try await storage.read(body)
        } catch {
            throw SyncError(reading: error)
        }
    }

    /// A stored ``Timestamp`` as a date.
    static func date(_ timestamp: String?) -> Date? {
        timestamp.flatMap(Timestamp.parse).map(Date.init(timeIntervalSince1970:))
    }

    /// The endpoint reads go by: as the cache's configuration has it, as the read API and the CLI serve it; for an
    /// endpoint the configuration does not name (a cache opened for reading without one), as its last sync stored
    /// it.
    func endpoint(_ name: String, _ reader: any StorageReader) throws -> EndpointConfiguration {
        try Self.endpoint(name, reader, configuration: configuration)
    }

    /// ``endpoint(_:_:)`` in `configuration`.
    static func endpoint(
        _ name: String, _ reader: any StorageReader, configuration: SyncConfiguration
    ) throws -> EndpointConfiguration {
        if let configured = configuration.plan(named: name) { return configured }
        guard let endpoint = try reader.storedEndpoint(named: name) else { throw StoreError.unknownEndpoint(name) }
        return endpoint
    }

    private static func decode<T: Decodable>(
        _ type: T.Type, _ data: Data, decoder: JSONDecoder, what: String
    ) throws(SyncError) -> T {
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw .decoding("\(what) does not decode as \(T.self): \(DecodingFailure(error, in: data))")
        }
    }
}
