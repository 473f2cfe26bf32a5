/// Something wrong with one value of one record, and what the decoder did about it.
///
/// A problem names the record (by its primary key when that could be read), the JSON path inside the
/// record, what the column expected and what the record held:
///
/// ```
/// users[id=8] > address.geo.lat (real): found string "really far north"
/// ```
///
/// Problems are stored per sync run, so that a bad record upstream can be found and fixed there.
///
/// ## Topics
///
/// - ``Action``
/// - ``description``
/// - ``summary(endpoint:)``
package struct DecodingProblem: Sendable, Hashable, CustomStringConvertible {
    /// What the decoder did with the value or the record.
    package enum Action: String, Sendable, Hashable {
        /// The record was not stored: a required or key column, or the record itself, was unusable.
        case rejected
        /// An optional column was unusable and became NULL.
        case nulled
        /// The value was stored with a part replaced (a lone surrogate escape became U+FFFD).
        case replaced
        /// The record was stored as received, but the value was not used: an incremental cursor value beyond the
        /// sync's time plus one day does not become the cursor.
        case kept
    }

    /// The record's position in the records array, from 0.
    package var recordIndex: Int
    /// The record's primary key values, when they could be read.
    package var recordKey: [ColumnValue]?
    /// `id=8`, `id=8,org=acme`, or `#12` (the index) when the key could not be read; text keys appear as is.
    package var recordLabel: String
    /// The JSON path inside the record (`address.geo.lat`), `$` for the record itself.
    package var path: String
    /// The column's name, when the problem is about a column.
    package var column: String?
    /// What the column takes: `real`, `integer`, … or `object` for the record itself.
    package var expected: String
    /// What the record held: `string "really far north"`, `number 1.5`, `boolean true`, `object`, `array`,
    /// `null` or `missing`.
    package var found: String
    package var action: Action

    package init(
        recordIndex: Int,
        recordKey: [ColumnValue]?,
        recordLabel: String,
        path: String,
        column: String?,
        expected: String,
        found: String,
        action: Action
    ) {
        self.recordIndex = recordIndex
        self.recordKey = recordKey
        self.recordLabel = recordLabel
        self.path = path
        self.column = column
        self.expected = expected
        self.found = found
        self.action = action
    }

    /// The problem without the endpoint: `[id=8] > address.geo.lat (real): found string "really far north"`.
    package var description: String {
        "[\(recordLabel)] > " + Self.detail(path: path, expected: expected, found: found)
    }

    /// The part after the record: `address.geo.lat (real): found string "really far north"`.
    package static func detail(path: String, expected: String, found: String) -> String {
        "\(path) (\(expected)): found \(found)"
    }

    /// The problem as one line for a person: `users[id=8] > address.geo.lat (real): found string "really far north"`.
    ///
    /// - Parameter endpoint: the endpoint's name.
    /// - Returns: the endpoint's name followed by ``description``.
    package func summary(endpoint: String) -> String {
        endpoint + description
    }
}
