package import SyncDecoding
package import SyncModel
internal import SyncSQLite

/// What a reader writes in a query or a URL, read against an endpoint's columns: the column a filter names, and a
/// value converted as the column stores it. The same for every store, SQL or not.
package enum RecordOperand {
    /// The configured column a reader names.
    ///
    /// - Throws: ``StoreError/unknownColumn(_:endpoint:known:)``.
    package static func column(named name: String, of endpoint: EndpointConfiguration) throws -> ColumnSpec {
        guard let column = endpoint.columns.first(where: { $0.name == name }) else {
            throw StoreError.unknownColumn(name, endpoint: endpoint.name.name, known: endpoint.columns.map(\.name))
        }
        return column
    }

    /// A value as written by a reader (a filter's operand, a key in a URL), converted as the column stores it: an
    /// integer, a boolean's 1 or 0, a number, a timestamp at its stored width, or text. Every store binds it.
    ///
    /// - Parameter isKey: Whether the text is part of a record's key (`get`, `/records/{id}`) rather than a filter's
    ///   value; the message says which.
    /// - Throws: ``StoreError`` (`badValue` or `badKey`) when the text does not fit the column.
    package static func value(
        _ text: String, for column: ColumnSpec, of endpoint: EndpointConfiguration, isKey: Bool = false
    ) throws -> ColumnValue {
        func invalid(_ expected: String) -> StoreError {
            isKey
                ? .badKey(text, endpoint: endpoint.name.name, expected: "\(expected) for \(column.name)")
                : .badValue(text, column: column.name, endpoint: endpoint.name.name, expected: expected)
        }
        switch column.type {
        case .integer:
            guard let integer = Int64(text) else {
                throw invalid("an integer")
            }
            return .integer(integer)
        case .boolean:
            switch text.lowercased() {
            case "true", "1": return .integer(1)
            case "false", "0": return .integer(0)
            default:
                throw invalid("true or false")
            }
        case .real:
            guard let real = Double(text) else {
                throw invalid("a number")
            }
            return .real(real)
        case .timestamp:
            // Stored at one width (``RFC3339Timestamp/text``), so any form a reader writes is brought to it first.
            guard let stored = RFC3339Timestamp.storedForm(ofOperand: text) else {
                throw StoreError.badKey(
                    text, endpoint: endpoint.name.name,
                    expected: "an RFC 3339 timestamp or Unix seconds for \(column.name)")
            }
            return .text(stored)
        case .text, .json:
            return .text(text)
        }
    }

    /// A record's key as written by a reader (one value per key column, as text: `3`, or `3,eu` for a composite
    /// key), converted as the key columns store it.
    ///
    /// - Throws: ``StoreError`` (`badKey`) for a key of the wrong length or a value that does not fit its column.
    package static func key(_ key: [String], of endpoint: EndpointConfiguration) throws -> [ColumnValue] {
        let keyColumns = endpoint.primaryKey.map { endpoint.columns[$0] }
        guard key.count == keyColumns.count else {
            throw StoreError.badKey(
                key.joined(separator: ","), endpoint: endpoint.name.name,
                expected:
                    "\(keyColumns.count) values separated by commas (\(keyColumns.map(\.name).joined(separator: ",")))"
            )
        }
        return try zip(key, keyColumns).map { text, column in
            try value(text, for: column, of: endpoint, isKey: true)
        }
    }
}
