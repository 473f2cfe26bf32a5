public import FoundationEssentials
public import SyncPersistence
import SyncSupport

/// The stored data as stored: records' JSON as received with their configured columns' values, and documents' bodies,
/// each with its entity tag — what `syncd query` and `syncd get` print, and what a program relays without decoding.
extension SyncCache {
    /// Records as stored: each one's JSON as received, and the values of the endpoint's configured columns.
    public struct Table: Sendable, Hashable {
        /// The configured columns, in the configuration's order.
        public var columns: [String]
        /// Each record's column values, in the order of ``columns``.
        public var rows: [[SQLValue]]
        /// Each record's JSON as the upstream sent it, in the order of ``rows``.
        public var json: [String]
        /// The strong entity tag of the endpoint's data, quoted.
        public var etag: String
        /// The endpoint's version.
        public var version: Int64
        /// When the endpoint's data last changed.
        public var changedAt: Date?
    }

    /// The records of a collection endpoint that match `filters`, as stored.
    ///
    /// ```swift
    /// let table = try await cache.table(from: "users", where: [.equal("city", "Oslo")], limit: 10)
    /// for json in table.json { print(json) }
    /// ```
    ///
    /// - Throws: ``SyncError``: an unknown endpoint or column, an endpoint never synced, a read failure.
    public func table(
        from endpoint: String, where filters: [RecordFilter] = [], order: [RecordOrder] = [], limit: Int? = nil,
        offset: Int = 0
    ) async throws(SyncError) -> Table {
        let query = RecordQuery(filters: filters, order: order, limit: limit, offset: max(0, offset))
        let page = try await readStored { reader in try reader.records(of: try self.endpoint(endpoint, reader), query) }
        return Table(page)
    }

    /// One record's JSON as received, by its key (one value per key column, as text); nil when no record has it.
    ///
    /// - Throws: ``SyncError``: an unknown endpoint, a key of the wrong form, a document endpoint, a read failure.
    public func recordJSON(from endpoint: String, key: [String]) async throws(SyncError) -> Cached<String>? {
        let record = try await readStored { reader in
            try reader.record(of: try self.endpoint(endpoint, reader), key: key)
        }
        return record.map { record in
            Cached(
                value: record.raw, etag: record.etag, version: record.version,
                changedAt: Self.date(record.changedAt))
        }
    }

    /// A document endpoint's body as received; nil before its first sync.
    ///
    /// - Throws: ``SyncError``: an unknown endpoint, a collection endpoint, a read failure.
    public func documentBody(from endpoint: String) async throws(SyncError) -> Cached<Data>? {
        let document = try await readStored { reader in try reader.document(of: try self.endpoint(endpoint, reader)) }
        return document.map { document in
            Cached(
                value: Data(document.body), etag: document.etag, version: document.version,
                changedAt: Self.date(document.changedAt))
        }
    }

    /// Whether an entity tag a reader holds (`If-None-Match`'s list, `*` allowed, weak tags compared weakly)
    /// matches `etag`: the reader's copy is current.
    public static func etag(_ etag: String, isMatchedBy ifNoneMatch: String) -> Bool {
        EntityTag.ifNoneMatch(ifNoneMatch, matches: etag)
    }
}

extension SyncCache.Table {
    /// A page of records as stored, as a table.
    init(_ page: RecordPage) {
        self.init(
            columns: page.columns, rows: page.rows.map { $0.map(SyncCache.SQLValue.init) }, json: page.raws,
            etag: page.etag, version: page.version, changedAt: SyncCache.date(page.changedAt))
    }
}
