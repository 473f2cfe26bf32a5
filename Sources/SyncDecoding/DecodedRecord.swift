/// One record of a response, as ``RecordDecoder`` yields it: where its bytes are, its column values,
/// and what was wrong with it.
///
/// The decoder reuses one record's storage for the next, so keep what you need before returning
/// from the closure (copying the record or its arrays is safe: they are copied on write).
///
/// ## Topics
///
/// - ``raw``
/// - ``values``
/// - ``problems``
/// - ``isRejected``
package struct DecodedRecord: Sendable, Hashable {
    /// The record's position in the records array, from 0.
    package var index: Int
    /// The offsets of the record's exact bytes in the body: what is stored as `_raw`, never re-serialised.
    package var raw: Range<Int>
    /// One value per configured column, in column order; `.null` when missing, null or unusable.
    package var values: [ColumnValue]
    /// What was wrong, empty for a good record.
    package var problems: [DecodingProblem]
    /// Whether the record must not be stored: a required or key column is missing, null or mistyped,
    /// or the record is not an object.
    package var isRejected: Bool

    package init(index: Int, raw: Range<Int>, values: [ColumnValue], problems: [DecodingProblem], isRejected: Bool) {
        self.index = index
        self.raw = raw
        self.values = values
        self.problems = problems
        self.isRejected = isRejected
    }
}

extension DecodedRecord {
    /// A record with every column NULL: the reusable starting state of a reader.
    static func empty(columnCount: Int) -> DecodedRecord {
        DecodedRecord(
            index: 0, raw: 0..<0, values: Array(repeating: .null, count: columnCount), problems: [], isRejected: false)
    }
}
