package import SyncDecoding

// One row of a child endpoint's parent, as its run reads it: in the model, since the request templates render from
// it (ChildRequest) and the store reads it (FanOutInputs).

/// One row of a parent's table, as a child endpoint's run reads it.
package struct ParentRow: Sendable, Hashable {
    /// The row's key as JSON (``ColumnValue/keyJSON(_:)``): the child rows' `_parent`.
    package var key: String
    /// The values of ``FanOutPlan/parentColumns``, in that order.
    package var values: [ColumnValue]
    /// The row's `_version`: the parent endpoint's version at which it last changed.
    package var version: Int64

    package init(key: String, values: [ColumnValue], version: Int64) {
        self.key = key
        self.values = values
        self.version = version
    }
}
