package import SyncDecoding
package import SyncModel

/// What a writer does with each decoded record of a run, whatever the store: counts it, keeps its problems (capped),
/// keeps the stored row of a record that came back broken, follows an incremental cursor and its deleted flag, and
/// notes a key seen twice (the last record wins). The writer then stores, deletes or skips as ``take(_:)`` says.
///
/// ```swift
/// var intake = RecordIntake(endpoint: endpoint, keyNames: table.keyNames, now: facts.finishedAt)
/// for record in batch.records {
///     switch intake.take(record) {
///     case .skip: continue
///     case .delete(let key): deleted += try delete(key)
///     case .store: try upsert(record)
///     }
/// }
/// report.recordProblems = intake.problems
/// ```
package struct RecordIntake {
    /// At most this many problems of one run are kept (the run's row stores them); the counts stay exact.
    package static let problemLimit = 1000

    package enum Step: Equatable {
        /// Nothing to write: a rejected record (its stored row stays).
        case skip
        /// An incremental record whose deleted flag is true: delete the row with this key.
        case delete(key: [ColumnValue])
        /// Store the record; `isDuplicate` when an earlier record of the run had its key.
        case store(isDuplicate: Bool)
    }

    package private(set) var received = 0
    package private(set) var rejected = 0
    /// The keys of the records stored or kept, for a snapshot's deletions.
    package private(set) var seen: SeenKeys
    package private(set) var incremental: IncrementalProgress?
    // The decoding problems come first, as the records brought them; duplicates and future cursors after.
    private var decodingProblems: [DecodingProblem] = []
    private var laterProblems: [DecodingProblem] = []
    private let keyColumns: [Int]
    private let keyNames: [String]

    package init(endpoint: EndpointConfiguration, keyNames: [String], now: Double) {
        seen = SeenKeys(keyColumns: endpoint.primaryKey)
        incremental = endpoint.incremental.map { IncrementalProgress($0, endpoint: endpoint, now: now) }
        keyColumns = endpoint.primaryKey
        self.keyNames = keyNames
    }

    /// The run's record problems, at most ``RunRecord/storedProblemLimit``.
    package var problems: [DecodingProblem] {
        let decoding = decodingProblems.prefix(Self.problemLimit)
        return Array(decoding) + laterProblems.prefix(Self.problemLimit - decoding.count)
    }

    /// Follows the cursor afresh from here: a child endpoint's parents each have their own.
    package mutating func restartCursor() {
        incremental?.restart()
    }

    /// Whether every record received was rejected (or none came).
    package var isEmpty: Bool { received - rejected == 0 }

    package mutating func take(_ record: borrowing DecodedRecord) -> Step {
        received += 1
        if !record.problems.isEmpty, decodingProblems.count < Self.problemLimit {
            decodingProblems.append(contentsOf: record.problems)
        }
        if record.isRejected {
            rejected += 1
            // Keep the stored version of a record that came back broken: a bad record loses nothing.
            if let key = record.problems.first(where: { $0.recordKey != nil })?.recordKey {
                _ = seen.insert(key: key)
            }
            return .skip
        }
        if incremental != nil {
            if let future = incremental?.observe(record.values), let applying = incremental,
                laterProblems.count < Self.problemLimit
            {
                laterProblems.append(
                    applying.futureProblem(record, value: future, key: key(of: record), keyNames: keyNames))
            }
            if let flagged = incremental, flagged.isDeleted(record.values) {
                return .delete(key: key(of: record))
            }
        }
        // Capped like every problem list: one key repeated millions of times keeps memory flat.
        let isDuplicate = !seen.insert(values: record.values)
        if isDuplicate, laterProblems.count < Self.problemLimit {
            laterProblems.append(Self.duplicate(record, key: key(of: record), keyNames: keyNames))
        }
        return .store(isDuplicate: isDuplicate)
    }

    private func key(of record: borrowing DecodedRecord) -> [ColumnValue] {
        keyColumns.map { record.values[$0] }
    }

    /// The problem noted for a record whose key an earlier record of the run had.
    static func duplicate(_ record: borrowing DecodedRecord, key: [ColumnValue], keyNames: [String])
        -> DecodingProblem
    {
        let label = zip(keyNames, key).map { "\($0)=\(Self.plain($1))" }.joined(separator: ",")
        return DecodingProblem(
            recordIndex: record.index, recordKey: key, recordLabel: label, path: "$", column: nil,
            expected: "a unique key", found: "a duplicate of an earlier record (the last one wins)", action: .replaced
        )
    }

    /// A key value as a problem's label shows it: a text as it is, anything else as JSON.
    static func plain(_ value: ColumnValue) -> String {
        switch value {
        case .text(let text): text
        default: value.jsonLiteral
        }
    }
}
