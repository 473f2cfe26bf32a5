import SyncDecoding

/// The whole database of a ``MemoryStore`` as one copy-on-write value: what SQLite keeps in its tables
/// (`syncd_endpoints`, each endpoint's record table with its tombstones, `syncd_documents`, the drift journal,
/// `syncd_runs`, `syncd_resources`) and `syncd_meta`'s instance id, with a generation that moves at each commit.
///
/// A transaction changes a copy (``MemoryWorkingCopy``) and the store swaps it in whole, so that a reader, who takes
/// the value as it is, sees every run before it or after it, never half.
struct MemoryData: Sendable {
    /// The store's instance id, part of every entity tag: 16 random hex digits, as SQLite's.
    let instance: String
    /// Moves with every commit (``ReadStorage/generation()``).
    var generation: Int64 = 0
    /// Each endpoint's row, by name.
    var endpoints: [String: MemoryEndpoint] = [:]
    /// Each collection endpoint's records, by endpoint name.
    var tables: [String: MemoryTable] = [:]
    /// Each document endpoint's body, by endpoint name.
    var documents: [String: MemoryDocument] = [:]
    /// Each endpoint's schema-drift journal, by endpoint name.
    var drift: [String: MemoryDrift] = [:]
    /// Each endpoint's last ``RunRecord/retainedRuns`` runs, oldest first, by endpoint name.
    var runs: [String: [MemoryRun]] = [:]
    /// The id of the next run: ids grow across endpoints, as syncd_runs' do.
    var nextRunID: Int64 = 1
    /// Each child endpoint's state per parent (`syncd_children`), by endpoint name, then parent key.
    var children: [String: [String: ChildState]] = [:]
    /// `SyncCache.fetch`'s resources, by key.
    var resources: [String: StoredResource] = [:]

    init() {
        instance = (0..<8).map { _ in
            let byte = UInt8.random(in: 0...255)
            return String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }.joined()
    }
}

/// An endpoint's row: its state, and what it says of the table the last run stored.
struct MemoryEndpoint: Sendable {
    var state: EndpointState
    /// The URL as URL redaction shows it.
    var url: String
    /// The ``TableShape/columnsSignature`` of the last successful run of a collection.
    var columnsSignature: String?
    /// The key columns' names of the last successful run of a collection.
    var keyNames: [String] = []

    /// A new row: version 0, nothing stored, no run yet.
    init(name: String, kind: String, url: String) {
        state = EndpointState(
            name: name, kind: kind, version: 0, recordCount: 0, changedAt: nil, lastAttemptAt: nil,
            lastSuccessAt: nil, lastStatus: nil, lastError: nil, consecutiveFailures: 0, etag: nil, lastModified: nil,
            nextDueAt: nil, cursor: nil, cursorColumn: nil)
        self.url = url
    }

    /// Writes a successful run's state (``EndpointSuccess``): the same fields SQLite's UPDATE assigns.
    mutating func finish(_ success: EndpointSuccess, keyNames: [String]) {
        state.lastAttemptAt = success.at
        state.lastSuccessAt = success.at
        state.lastStatus = success.httpStatus
        state.lastError = nil
        state.consecutiveFailures = 0
        state.recordCount = success.recordCount
        state.version = success.version
        state.parents = success.parents
        if success.changed { state.changedAt = success.at }
        Self.apply(success.etag, to: &state.etag)
        Self.apply(success.lastModified, to: &state.lastModified)
        if let signature = success.columnsSignature { columnsSignature = signature }
        if success.primaryKey != nil { self.keyNames = keyNames }
    }

    private static func apply(_ validator: EndpointSuccess.Validator, to stored: inout String?) {
        switch validator {
        case .keep: break
        case .store(let value): stored = value
        case .clear: stored = nil
        }
    }
}

/// A document endpoint's stored body.
struct MemoryDocument: Sendable {
    var body: [UInt8]
    var contentType: String?
    var version: Int64
    var changedAt: String
}

/// One run, as syncd_runs and syncd_errors hold it.
struct MemoryRun: Sendable {
    var id: Int64
    /// In the order of ``RunRecord/columns``.
    var values: [ColumnValue]
    /// Each in the order of ``RunRecord/problemColumns``.
    var problems: [[ColumnValue]]

    /// The value of one of ``RunRecord/columns``.
    func value(_ column: String) -> ColumnValue {
        RunRecord.columns.firstIndex(of: column).map { values[$0] } ?? .null
    }
}

/// An endpoint's schema-drift journal: the JSON types kept for each path, and the entries.
struct MemoryDrift: Sendable {
    struct Entry: Sendable {
        var detail: String?
        var firstSeen: String
        var lastSeen: String
        var count: Int
        var example: String?
    }

    /// An entry's identity, as syncd_drift's primary key (after the endpoint).
    struct Key: Sendable, Hashable {
        var kind: String
        var path: String
    }

    var pathTypes: [String: Int] = [:]
    var entries: [Key: Entry] = [:]
}

extension String {
    /// Whether the string sorts before `other` byte by byte, as SQLite's BINARY collation and PostgreSQL's "C" do.
    func precedesBytewise(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
