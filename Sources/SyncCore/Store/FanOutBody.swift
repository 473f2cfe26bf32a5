// What a run of a child endpoint reads before it fetches (its parents' rows, each parent's child state), and what
// it hands the store after (each walked parent's answer).

/// A child endpoint's state for one parent, after that parent's last walk (`syncd_children`).
package struct ChildState: Sendable, Hashable {
    /// The parent's key as JSON.
    package var parentKey: String
    /// The validators of the first page of the parent's last walk with an answer.
    package var etag: String?
    package var lastModified: String?
    /// The parent's `_version` when its children were last walked.
    package var parentVersion: Int64
    /// When its children were last walked (RFC 3339).
    package var walkedAt: String
    /// An incremental child's cursor for this parent: the highest value of the cursor column among its records, and
    /// that column's name (``IncrementalProgress``); nil before its first records.
    package var cursor: String?
    package var cursorColumn: String?

    package init(
        parentKey: String, etag: String?, lastModified: String?, parentVersion: Int64, walkedAt: String,
        cursor: String? = nil, cursorColumn: String? = nil
    ) {
        self.parentKey = parentKey
        self.etag = etag
        self.lastModified = lastModified
        self.parentVersion = parentVersion
        self.walkedAt = walkedAt
        self.cursor = cursor
        self.cursorColumn = cursorColumn
    }
}

/// What a run of a child endpoint starts from: its parent's rows, in key order, and its state per parent.
package struct FanOutInputs: Sendable {
    package var parents: [ParentRow]
    /// By parent key.
    package var children: [String: ChildState]

    package init(parents: [ParentRow], children: [String: ChildState]) {
        self.parents = parents
        self.children = children
    }
}

/// One parent's child walk, as the store applies it.
package struct ChildWalk: Sendable {
    package var parent: ParentRow
    /// The records of a 2xx; nil for a 304 (the parent's stored children stay).
    package var body: DecodedBody?
    /// The first page's validators.
    package var etag: String?
    package var lastModified: String?
    /// The parent's stored cursor and its column, sent with this walk: kept unless the walk's records move it.
    package var cursor: String?
    package var cursorColumn: String?

    package init(parent: ParentRow, body: DecodedBody?, etag: String? = nil, lastModified: String? = nil) {
        self.parent = parent
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// A child endpoint's run, fetched: every parent walked, and every parent the parent's table holds (whose children
/// stay when not walked; the children of any other parent are deleted).
package struct FanOutBody: Sendable {
    package var walks: [ChildWalk]
    /// The keys of all the parent's rows.
    package var parents: Set<String>
    /// What the run did per parent, for its report.
    package var counts: SyncSummary.FanOut

    package init(walks: [ChildWalk], parents: Set<String>, counts: SyncSummary.FanOut) {
        self.walks = walks
        self.parents = parents
        self.counts = counts
    }
}
