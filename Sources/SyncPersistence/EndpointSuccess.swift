package import SyncDecoding

/// What a successful run writes into its endpoint's row (``StoreTransaction/finishEndpoint(_:)``), as ``SyncApply``
/// decided it: the last attempt and success are `at`, the error and the failures in a row are cleared.
package struct EndpointSuccess: Sendable, Hashable {
    /// What becomes of a stored validator (`etag`, `last_modified`).
    package enum Validator: Sendable, Hashable {
        /// Left as stored: a 304 without it.
        case keep
        /// Replaced.
        case store(String)
        /// Cleared: a 200 without it.
        case clear
    }

    /// The run's finish time (RFC 3339).
    package var at: String
    package var httpStatus: Int?
    package var recordCount: Int
    package var version: Int64
    /// Whether the stored data changed: `changed_at` becomes ``at``.
    package var changed: Bool
    package var etag: Validator
    package var lastModified: Validator
    /// The table's ``TableShape/columnsSignature`` and ``TableShape/primaryKeyJSON``, for a collection; nil keeps
    /// the stored ones.
    package var columnsSignature: String?
    package var primaryKey: String?
    /// What the run did per parent (a child endpoint's), replacing the stored counts; nil clears them.
    package var parents: SyncSummary.FanOut?

    package init(
        at: String, httpStatus: Int?, recordCount: Int, version: Int64, changed: Bool, etag: Validator,
        lastModified: Validator, shape: TableShape?, parents: SyncSummary.FanOut? = nil
    ) {
        self.at = at
        self.httpStatus = httpStatus
        self.recordCount = recordCount
        self.version = version
        self.changed = changed
        self.etag = etag
        self.lastModified = lastModified
        self.columnsSignature = shape?.columnsSignature
        self.primaryKey = shape?.primaryKeyJSON
        self.parents = parents
    }
}

extension EndpointSuccess {
    /// The columns of syncd_endpoints the success writes and their values, in order, for a store's UPDATE.
    package var assignments: [(column: String, value: ColumnValue)] {
        var assignments: [(column: String, value: ColumnValue)] = [
            ("last_attempt_at", .text(at)), ("last_success_at", .text(at)),
            ("last_status", httpStatus.map { .integer(Int64($0)) } ?? .null), ("last_error", .null),
            ("consecutive_failures", .integer(0)), ("record_count", .integer(Int64(recordCount))),
            ("version", .integer(version)), ("parents", parents.map { .text($0.storedJSON) } ?? .null),
        ]
        if changed { assignments.append(("changed_at", .text(at))) }
        for (column, validator) in [("etag", etag), ("last_modified", lastModified)] {
            switch validator {
            case .keep: break
            case .store(let value): assignments.append((column, .text(value)))
            case .clear: assignments.append((column, .null))
            }
        }
        if let columnsSignature { assignments.append(("columns", .text(columnsSignature))) }
        if let primaryKey { assignments.append(("primary_key", .text(primaryKey))) }
        return assignments
    }
}

extension EndpointSuccess.Validator {
    /// A validator the run's answer carried (`value`), or not: a 304 keeps the stored one, a 200 clears it.
    init(_ value: String?, notModified: Bool) {
        if let value {
            self = .store(value)
        } else {
            self = notModified ? .keep : .clear
        }
    }
}
