import SyncDecoding
package import SyncModel
package import SyncSQLite

/// Reads an endpoint's cached records, with the entity tags that let readers revalidate for free.
///
/// The CLI and the read API both read through this type; it needs only a read-only connection. Each read runs
/// in one read transaction, so what it returns — rows, versions and tags — belongs to one committed sync.
package struct RecordReader {
    package let database: Database
    package let endpoint: EndpointConfiguration

    package init(database: Database, endpoint: EndpointConfiguration) {
        self.database = database
        self.endpoint = endpoint
    }

    /// The tags of what this database holds (``ReadTags``).
    func tags() throws -> ReadTags {
        ReadTags(instance: try Self.instance(of: database))
    }

    var compiler: QueryCompiler { QueryCompiler(.sqlite, endpoint: endpoint) }

    /// A database's instance id, part of every entity tag.
    package static func instance(of database: Database) throws -> String {
        try database.scalar(QueryCompiler.instanceSQL)?.textRepresentation ?? "0"
    }

    func state() throws -> EndpointState {
        guard let state = try EndpointState.named(endpoint.name.name, database),
            try endpoint.isDocument || database.tableExists(endpoint.name.name)
        else {
            throw StoreError.notSynced(endpoint.name.name)
        }
        return state
    }

    /// The records a query selects.
    ///
    /// - Throws: ``StoreError`` for an unknown column, a value that does not fit its column, or an endpoint
    ///   not synced yet; ``SQLiteError``.
    /// - Parameters:
    ///   - countingAll: Also count every record the filters match (``Page/total``), in the same snapshot.
    ///   - maxBytes: Stop once the records read hold this many bytes of JSON (at least one record is read): the
    ///     page is then shorter than `query.limit`.
    package func records(_ query: RecordQuery, countingAll: Bool = false, maxBytes: Int = .max) throws -> RecordPage {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        return try database.transaction(.deferred) {
            try readRecords(query, countingAll: countingAll, maxBytes: maxBytes)
        }
    }

    private func readRecords(_ query: RecordQuery, countingAll: Bool, maxBytes: Int) throws -> RecordPage {
        let state = try state()
        let (page, count) = try compiler.records(query)
        var total: Int?
        if countingAll {
            total = Int(
                try database.scalar(count.sql, count.arguments.map(SQLiteValue.init))?
                    .textRepresentation.flatMap { Int($0) } ?? 0)
        }
        let statement = try database.makeStatement(page.sql)
        try statement.bind(page.arguments.map(SQLiteValue.init))
        var rows: [[ColumnValue]] = []
        var raws: [String] = []
        let columns = endpoint.columns.count
        var bytes = 0
        while bytes < maxBytes, try statement.step() {
            rows.append((0..<columns).map { ColumnValue(statement.value(at: $0)) })
            let raw = statement.text(at: columns) ?? "null"
            bytes += raw.utf8.count
            raws.append(raw)
        }
        return RecordPage(
            columns: endpoint.columns.map(\.name), rows: rows, raws: raws, etag: try tags().tag(state),
            version: state.version, changedAt: state.changedAt, total: total
        )
    }

    /// One record by its key: one value per key column, as text (`3`, or `3,eu` for a composite key).
    ///
    /// - Returns: The record, or `nil` when no record has that key.
    package func record(key: [String]) throws -> StoredRecord? {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        return try database.transaction(.deferred) { try readRecord(key: key) }
    }

    private func readRecord(key: [String]) throws -> StoredRecord? {
        let state = try state()
        let lookup = try compiler.record(key: key)
        let rows = try database.rows(lookup.sql, lookup.arguments.map(SQLiteValue.init))
        guard let row = rows.first, let raw = row.text("_raw"), let version = row.integer("_version") else {
            return nil
        }
        return StoredRecord(
            raw: raw, etag: try tags().tag(version), version: version, changedAt: row.text("_changed_at"),
            endpointVersion: state.version)
    }

    /// A document endpoint's body, or `nil` before it was first fetched.
    package func document() throws -> StoredDocument? {
        guard endpoint.isDocument else { throw StoreError.notDocument(endpoint.name.name) }
        return try database.transaction(.deferred) { try readDocument() }
    }

    private func readDocument() throws -> StoredDocument? {
        let document = compiler.document
        let rows = try database.rows(document.sql, document.arguments.map(SQLiteValue.init))
        guard let row = rows.first, let version = row.integer("version") else { return nil }
        let body: [UInt8]
        switch row["body"] {
        case .blob(let bytes): body = bytes
        case .text(let text): body = Array(text.utf8)
        default: body = []
        }
        return StoredDocument(
            body: body, contentType: row.text("content_type"),
            etag: try tags().tag(version), version: version, changedAt: row.text("changed_at"),
            endpointVersion: try EndpointState.named(endpoint.name.name, database)?.version ?? version)
    }
}
