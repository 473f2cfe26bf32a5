import SyncDecoding
import SyncModel
internal import SyncSQLite

/// ``StorageReader`` over one committed ``MemoryData`` value: whatever commits while it reads, it reads the state it
/// was given, whole.
struct MemoryReader: StorageReader {
    let data: MemoryData

    func instance() -> String {
        data.instance
    }

    func states() -> [EndpointState] {
        data.endpoints.values.map(\.state).sorted { $0.name.precedesBytewise($1.name) }
    }

    func state(of name: String) -> EndpointState? {
        data.endpoints[name]?.state
    }

    func storedEndpoint(named name: String) -> EndpointConfiguration? {
        guard let row = data.endpoints[name] else { return nil }
        return StoredEndpoint.configuration(
            name: name, kind: row.state.kind, url: row.url, signature: row.columnsSignature, keyNames: row.keyNames)
    }

    func incompatibility(with endpoint: EndpointConfiguration) -> StoreError? {
        guard !endpoint.isDocument else { return nil }
        return data.tables[endpoint.name.name]?.incompatibility(with: TableShape(endpoint))
    }

    func unconfiguredColumns(of endpoint: EndpointConfiguration) -> [String] {
        guard !endpoint.isDocument, let table = data.tables[endpoint.name.name] else { return [] }
        let configured = Set(endpoint.columns.map(\.name))
        return table.columns.map(\.name).filter { !configured.contains($0) }
    }

    /// The endpoint's state and (for a collection) its table, when it was synced.
    func synced(_ endpoint: EndpointConfiguration) throws -> (state: EndpointState, table: MemoryTable?) {
        let name = endpoint.name.name
        guard let state = data.endpoints[name]?.state, endpoint.isDocument || data.tables[name] != nil else {
            throw StoreError.notSynced(name)
        }
        return (state, data.tables[name])
    }

    /// A collection's state and table, or why it has none.
    func collection(_ endpoint: EndpointConfiguration) throws -> (state: EndpointState, table: MemoryTable) {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        let (state, table) = try synced(endpoint)
        guard let table else { throw StoreError.notSynced(endpoint.name.name) }
        return (state, table)
    }

    func records(of endpoint: EndpointConfiguration, _ query: RecordQuery, countingAll: Bool, maxBytes: Int) throws
        -> RecordPage
    {
        let (state, table) = try collection(endpoint)
        let (page, total) = try MemoryQuery(endpoint: endpoint, table: table).select(query)
        let positions = table.positions(of: endpoint.columns)
        var rows: [[ColumnValue]] = []
        var raws: [String] = []
        var bytes = 0
        for (_, row) in page {
            guard bytes < maxBytes else { break }
            rows.append(positions.map { $0.map { row.values[$0] } ?? .null })
            raws.append(row.raw)
            bytes += row.raw.utf8.count
        }
        return RecordPage(
            columns: endpoint.columns.map(\.name), rows: rows, raws: raws, etag: try tags().tag(state),
            version: state.version, changedAt: state.changedAt, total: countingAll ? total : nil)
    }

    func record(of endpoint: EndpointConfiguration, key: [String]) throws -> StoredRecord? {
        let (state, table) = try collection(endpoint)
        let values = try RecordOperand.key(key, of: endpoint)
        guard let row = table.rows[values] else { return nil }
        return StoredRecord(
            raw: row.raw, etag: try tags().tag(row.version), version: row.version, changedAt: row.changedAt,
            endpointVersion: state.version)
    }

    func document(of endpoint: EndpointConfiguration) throws -> StoredDocument? {
        guard endpoint.isDocument else { throw StoreError.notDocument(endpoint.name.name) }
        guard let document = data.documents[endpoint.name.name] else { return nil }
        return StoredDocument(
            body: document.body, contentType: document.contentType, etag: try tags().tag(document.version),
            version: document.version, changedAt: document.changedAt,
            endpointVersion: data.endpoints[endpoint.name.name]?.state.version ?? document.version)
    }

    func drift(endpoint: String?) -> [SchemaDrift] {
        let journals = data.drift.filter { endpoint == nil || $0.key == endpoint }
        let entries = journals.flatMap { name, journal in
            journal.entries.compactMap { key, entry -> SchemaDrift? in
                guard let kind = SchemaDrift.Kind(rawValue: key.kind) else { return nil }
                return SchemaDrift(
                    endpoint: name, kind: kind, path: key.path, detail: entry.detail, firstSeen: entry.firstSeen,
                    lastSeen: entry.lastSeen, count: entry.count, example: entry.example)
            }
        }
        return entries.sorted { first, second in
            if first.endpoint != second.endpoint { return first.endpoint.precedesBytewise(second.endpoint) }
            if first.kind != second.kind { return first.kind.rawValue.precedesBytewise(second.kind.rawValue) }
            return first.path.precedesBytewise(second.path)
        }
    }

    func recentRuns(of endpoints: [String], limit: Int) -> [RecentRun] {
        let limit = min(max(0, limit), RecentRun.readLimit)
        return endpoints.flatMap { endpoint in
            (data.runs[endpoint] ?? []).suffix(limit).compactMap { run -> RecentRun? in
                guard case .text(let outcomeText) = run.value("outcome"),
                    let outcome = SyncSummary.Outcome(rawValue: outcomeText)
                else { return nil }
                func integer(_ column: String) -> Int64 {
                    if case .integer(let value) = run.value(column) { return value }
                    return 0
                }
                var startedAt = ""
                if case .text(let text) = run.value("started_at") { startedAt = text }
                return RecentRun(
                    endpoint: endpoint, startedAt: startedAt, durationMilliseconds: integer("duration_ms"),
                    outcome: outcome, records: integer("records"))
            }
        }
    }
}
