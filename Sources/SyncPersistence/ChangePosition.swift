/// A place in an endpoint's change feed, between two changes: where a capped answer stopped and the next one starts.
///
/// The feed orders every change by version, then the changed rows of that version before its deletions, each by
/// its SQLite rowid. A sync never gives a change a version at or below one already committed, so a change that
/// happens while a reader walks the feed lands after every position already handed out: a reader that follows the
/// positions to the end misses nothing, and sees a row again only when it changed again.
///
/// Written as `VERSION.r.ROWID` (after a changed row) or `VERSION.d.ROWID` (after a deletion), e.g. `12.r.4031`.
package struct ChangePosition: Sendable, Hashable, CustomStringConvertible {
    /// The version of the last change handed out.
    package var version: Int64
    /// Whether that change was a deletion (a tombstone) rather than a changed row.
    package var isDeletion: Bool
    /// Its rowid, in the record table or in `syncd_tombstones`.
    package var rowid: Int64

    package init(version: Int64, isDeletion: Bool, rowid: Int64) {
        self.version = version
        self.isDeletion = isDeletion
        self.rowid = rowid
    }

    /// Parses `VERSION.r.ROWID` or `VERSION.d.ROWID`; `nil` for anything else.
    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let version = Int64(parts[0]), version >= 0, let rowid = Int64(parts[2]) else {
            return nil
        }
        switch parts[1] {
        case "r": isDeletion = false
        case "d": isDeletion = true
        default: return nil
        }
        self.version = version
        self.rowid = rowid
    }

    package var description: String {
        "\(version).\(isDeletion ? "d" : "r").\(rowid)"
    }

    /// The feed's order: by version, rows before deletions, then by rowid.
    package func precedes(_ other: ChangePosition) -> Bool {
        if version != other.version { return version < other.version }
        if isDeletion != other.isDeletion { return !isDeletion }
        return rowid < other.rowid
    }
}
