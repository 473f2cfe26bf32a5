import SyncDecoding
package import SyncIngest
package import SyncModel

// What a run of a child endpoint reads before it fetches (its parents' rows, in Model/ParentRow.swift; each
// parent's child state), and what it hands the store after (each walked parent's answer).

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
    /// Whether its answer replaces the parent's children: a 2xx (its records, delivered to ``FanOutRun``), or a status
    /// `on_status` maps to `empty`. False for a 304 or a parent not walked: its stored children stay.
    package var replaces: Bool
    /// The first page's validators.
    package var etag: String?
    package var lastModified: String?
    /// The parent's stored cursor and its column, sent with this walk: kept unless the walk's records move it.
    package var cursor: String?
    package var cursorColumn: String?

    package init(parent: ParentRow, replaces: Bool, etag: String? = nil, lastModified: String? = nil) {
        self.parent = parent
        self.replaces = replaces
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What a child endpoint's walks answered besides their pages: each parent's walk, in the parents' order, and the
/// run's counts (``FanOutRun/finish(_:)``).
package struct FanOutOutcome: Sendable {
    package var walks: [ChildWalk]
    package var counts: SyncSummary.FanOut

    package init(walks: [ChildWalk], counts: SyncSummary.FanOut) {
        self.walks = walks
        self.counts = counts
    }
}

/// A child endpoint's run for the store: its walks' pages and answers, and every parent the parent's table holds
/// (whose children stay when not walked; the children of any other parent are deleted).
package struct FanOutBody: Sendable {
    package var run: FanOutRun<FanOutOutcome>
    /// Whether the transaction follows the run's feed, storing records while later walks are on the way; else every
    /// walk ended, and the run's pages are all in its spool.
    package var streams: Bool
    /// The keys of all the parent's rows.
    package var parents: Set<String>
    /// The keys of the parents walked before (``FanOutInputs/children``): the only parents stored rows can have.
    package var walkedBefore: Set<String>

    package init(run: FanOutRun<FanOutOutcome>, streams: Bool, parents: Set<String>, walkedBefore: Set<String>) {
        self.run = run
        self.streams = streams
        self.parents = parents
        self.walkedBefore = walkedBefore
    }
}

extension ParentRow {
    /// The values a child row of this parent carries after its own: the parent columns (each by its index in
    /// ``FanOutPlan/parentColumns``), then `_parent`.
    func carried(_ sources: [Int]) -> [ColumnValue] {
        sources.map { values.indices.contains($0) ? values[$0] : .null } + [.text(key)]
    }
}
