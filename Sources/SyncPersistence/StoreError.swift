package import SyncModel

/// A store operation that cannot go ahead, in one sentence.
package struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: String, Sendable, Hashable {
        case notSyncdTable = "not_syncd_table"
        case primaryKeyChanged = "primary_key_changed"
        case unknownEndpoint = "unknown_endpoint"
        case unknownColumn = "unknown_column"
        case badKey = "bad_key"
        case emptySnapshot = "empty_snapshot"
        case tooManyDeletions = "too_many_deletions"
        case primaryKeyTypeChanged = "primary_key_type_changed"
        case notCollection = "not_collection"
        case notDocument = "not_document"
        case notSynced = "not_synced"
        case versionExhausted = "version_exhausted"
        case claimLost = "claim_lost"
        case busy
    }

    private let code: Code
    package let description: String
    /// The endpoint the error is about, when it is about one by name.
    package private(set) var endpoint: String?

    private init(_ code: Code, _ description: String, endpoint: String? = nil) {
        self.code = code
        self.description = description
        self.endpoint = endpoint
    }

    package static func == (lhs: StoreError, rhs: StoreError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    package static let notSyncdTable = StoreError(.notSyncdTable, "")
    package static let primaryKeyChanged = StoreError(.primaryKeyChanged, "")
    package static let unknownEndpoint = StoreError(.unknownEndpoint, "")
    package static let unknownColumn = StoreError(.unknownColumn, "")
    package static let badKey = StoreError(.badKey, "")
    package static let emptySnapshot = StoreError(.emptySnapshot, "")
    package static let tooManyDeletions = StoreError(.tooManyDeletions, "")
    package static let primaryKeyTypeChanged = StoreError(.primaryKeyTypeChanged, "")
    package static let notCollection = StoreError(.notCollection, "")
    package static let notDocument = StoreError(.notDocument, "")
    package static let notSynced = StoreError(.notSynced, "")
    package static let versionExhausted = StoreError(.versionExhausted, "")
    package static let claimLost = StoreError(.claimLost, "")
    /// Too many reads wait already: the read is refused at once rather than queued without end.
    package static let busy = StoreError(.busy, "too many reads are waiting for the database; try again in a moment")

    /// The run's claim on its endpoint ran out while it ran, and another node took it (see ``EndpointLeasing``).
    package static func claimLost(endpoint: String, holder: String?) -> StoreError {
        StoreError(
            .claimLost,
            "\(endpoint): this node's claim ran out during the run and "
                + (holder.map { "another node (\($0.split(separator: "/").first ?? "")) holds it now" }
                    ?? "it was taken")
                + "; dropped the run's result, the data stays as the holder writes it",
            endpoint: endpoint)
    }

    package static func notSyncdTable(_ table: String) -> StoreError {
        StoreError(.notSyncdTable, "table \"\(table)\" exists but was not created by syncd (it has no _raw column)")
    }

    package static func primaryKeyChanged(table: String, stored: [String], configured: [String]) -> StoreError {
        StoreError(
            .primaryKeyChanged,
            "the primary key of \"\(table)\" changed from (\(stored.joined(separator: ", "))) to "
                + "(\(configured.joined(separator: ", "))); drop the table or give the endpoint a new name"
        )
    }

    package static func primaryKeyTypeChanged(table: String, column: String, stored: String, configured: String)
        -> StoreError
    {
        StoreError(
            .primaryKeyTypeChanged,
            "the type of the primary-key column \"\(column)\" of \"\(table)\" changed from \(stored) to "
                + "\(configured), which would delete every stored row; set the type back to \(stored), "
                + "or drop the table or give the endpoint a new name"
        )
    }

    package static func tooManyDeletions(
        endpoint: String, deleting: Int, stored: Int, limit: SyncEndpoint.DeletionLimit
    )
        -> StoreError
    {
        StoreError(
            .tooManyDeletions,
            "\(endpoint): the response would delete \(deleting) of the \(stored) stored rows, more than "
                + "max_delete = \(limit) allows; kept them (raise max_delete if the deletions are legitimate)"
        )
    }

    package static func unknownEndpoint(_ name: String) -> StoreError {
        StoreError(.unknownEndpoint, "there is no endpoint \"\(name)\" in the configuration", endpoint: name)
    }

    package static func unknownColumn(_ column: String, endpoint: String, known: [String]) -> StoreError {
        StoreError(
            .unknownColumn,
            "\"\(column)\" is not a configured column of \"\(endpoint)\" (its columns: \(known.joined(separator: ", ")))"
        )
    }

    package static func badKey(_ text: String, endpoint: String, expected: String) -> StoreError {
        StoreError(.badKey, "\"\(text)\" is not a key of \"\(endpoint)\": expected \(expected)")
    }

    /// A filter's value that the column cannot hold. It shares ``badKey``'s code: both are a reader's text that
    /// does not fit a column.
    package static func badValue(_ text: String, column: String, endpoint: String, expected: String) -> StoreError {
        StoreError(
            .badKey, "\"\(text)\" is not a value of column \"\(column)\" of \"\(endpoint)\": expected \(expected)")
    }

    package static func emptySnapshot(endpoint: String, stored: Int) -> StoreError {
        StoreError(
            .emptySnapshot,
            "\(endpoint): the response holds no records while \(stored) are stored; kept them "
                + "(set allow_empty = true if an empty answer is legitimate)"
        )
    }

    package static func notCollection(_ endpoint: String) -> StoreError {
        StoreError(.notCollection, "\"\(endpoint)\" is a document endpoint: it has no records")
    }

    package static func notDocument(_ endpoint: String) -> StoreError {
        StoreError(.notDocument, "\"\(endpoint)\" is a collection endpoint: give the record's key")
    }

    package static func notSynced(_ endpoint: String) -> StoreError {
        StoreError(
            .notSynced, "\"\(endpoint)\" has not been synced yet: run `syncd sync \(endpoint)`", endpoint: endpoint)
    }

    package static func versionExhausted(endpoint: String) -> StoreError {
        StoreError(
            .versionExhausted,
            "its version in syncd_endpoints is at the largest value a version can take (the database file was "
                + "edited); kept the stored data: rename the endpoint to start it afresh",
            endpoint: endpoint)
    }
}
