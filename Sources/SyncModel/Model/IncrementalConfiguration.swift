package import SyncDecoding

/// How an incremental endpoint asks only for what changed (`incremental = { param = …, column = … }`).
///
/// The highest value of ``column`` applied so far is sent as the query parameter ``param`` (``initial`` before
/// the first rows; less ``lag`` for a timestamp column, so that a window is read again and late writes are
/// caught). Rows are upserted, never deleted by absence; a record whose ``deletedFlag`` is true is deleted and
/// leaves a tombstone.
package struct IncrementalConfiguration: Sendable, Hashable {
    /// The query parameter that carries the cursor.
    package var param: String
    /// The cursor column: an index into the endpoint's columns.
    package var column: Int
    /// The value sent before any row was stored. The default is none: the first request has no parameter.
    package var initial: String?
    /// Subtracted from a timestamp cursor before it is sent. The default is none.
    package var lag: Duration?
    /// A boolean in each record; true deletes the record's row. The default is none.
    package var deletedFlag: JSONPath?

    package init(
        param: String, column: Int, initial: String? = nil, lag: Duration? = nil, deletedFlag: JSONPath? = nil
    ) {
        self.param = param
        self.column = column
        self.initial = initial
        self.lag = lag
        self.deletedFlag = deletedFlag
    }
}
