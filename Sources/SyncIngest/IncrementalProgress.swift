package import SyncDecoding
package import SyncModel

/// What an incremental run follows, whatever the store: the highest cursor value among the records applied (a
/// timestamp later than the sync's time plus ``futureTolerance`` is not adopted), and each record's deleted flag.
package struct IncrementalProgress {
    /// How far past the sync's time a timestamp cursor value may be and still become the cursor: one day, for
    /// clocks that are off and for time zones written wrong.
    static let futureTolerance: Double = 86_400

    let configuration: IncrementalConfiguration
    package let columnName: String
    /// The cursor column's JSON path inside a record, for problems.
    let columnPath: String
    let type: ColumnType
    /// Where the deleted flag is among a record's values: after the table's columns (a child endpoint's parent
    /// columns and `_parent` included).
    let flagIndex: Int?
    package private(set) var highest: String?
    /// The latest timestamp adopted as the cursor, as stored (RFC 3339, UTC); nil for other column types.
    let latestAdoptable: String?

    package init(_ configuration: IncrementalConfiguration, endpoint: EndpointConfiguration, now: Double) {
        self.configuration = configuration
        self.columnName = endpoint.columns[configuration.column].name
        self.columnPath = endpoint.columns[configuration.column].path.description
        self.type = endpoint.columns[configuration.column].type
        self.latestAdoptable = type == .timestamp ? Self.timestamp(now + Self.futureTolerance) : nil
        self.flagIndex =
            configuration.deletedFlag == nil ? nil : endpoint.columns.count + (endpoint.declared.parent == nil ? 0 : 1)
    }

    /// Forgets the highest value seen: a child endpoint follows each parent's cursor on its own.
    package mutating func restart() {
        highest = nil
    }

    /// The cursor to store after the run: the highest value seen, when it moved past the stored one (or the stored
    /// one was another column's); nil when nothing is to be stored.
    package func cursorToStore(stored: String?, storedColumn: String?) -> String? {
        guard let highest else { return nil }
        if let stored, storedColumn == columnName, !Self.isGreater(highest, than: stored, type: type) { return nil }
        return highest
    }

    /// Takes the cursor column's value of an applied record into account.
    ///
    /// - Returns: The value when it is too far in the future to become the cursor; nil otherwise.
    package mutating func observe(_ values: [ColumnValue]) -> String? {
        guard let text = Self.text(values[configuration.column]) else { return nil }
        if let latestAdoptable, Self.isGreater(text, than: latestAdoptable, type: type) { return text }
        if let highest, !Self.isGreater(text, than: highest, type: type) { return nil }
        highest = text
        return nil
    }

    /// The problem stored for a record whose cursor value was not adopted.
    package func futureProblem(_ record: borrowing DecodedRecord, value: String, key: [ColumnValue], keyNames: [String])
        -> DecodingProblem
    {
        let label = zip(keyNames, key).map { "\($0)=\(RecordIntake.plain($1))" }.joined(separator: ",")
        return DecodingProblem(
            recordIndex: record.index, recordKey: key, recordLabel: label, path: columnPath,
            column: columnName, expected: "a cursor timestamp no later than \(latestAdoptable ?? "")",
            found: "\(value) (stored, not adopted as the cursor)", action: .kept)
    }

    /// Seconds since 1970 as a cursor timestamp (RFC 3339, UTC, no trailing zeros); nil out of range.
    static func timestamp(_ seconds: Double) -> String? {
        guard let nanoseconds = Int128(exactly: (seconds * 1_000_000_000).rounded(.down)) else { return nil }
        return RFC3339Timestamp(nanosecondsSinceEpoch: nanoseconds)?.text
    }

    /// Whether the record's deleted flag is true.
    package func isDeleted(_ values: [ColumnValue]) -> Bool {
        guard let flagIndex, flagIndex < values.count else { return false }
        return values[flagIndex] == .integer(1)
    }

    /// A cursor value as it is stored and sent: an integer's digits, a real's literal, a text as it is.
    static func text(_ value: ColumnValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .text(let text): text
        }
    }

    /// Orders cursor values by their column's type. Timestamps are RFC 3339 in UTC without trailing zeros in the
    /// fraction, which sort as text once the `Z` is set aside (`…:00Z` before `…:00.25Z`).
    static func isGreater(_ value: String, than other: String, type: ColumnType) -> Bool {
        switch type {
        case .integer, .boolean:
            guard let value = Int64(value), let other = Int64(other) else { return value > other }
            return value > other
        case .real:
            guard let value = Double(value), let other = Double(other) else { return value > other }
            return value > other
        case .timestamp:
            return other.utf8.dropLast().lexicographicallyPrecedes(value.utf8.dropLast())
        case .text, .json:
            return value > other
        }
    }
}
