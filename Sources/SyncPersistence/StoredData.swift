package import SyncDecoding

/// What a reader of the stored data gets back: records, one record, a document, changes. The same for every
/// storage (``ReadStorage``).

/// Records as the query selects them: the configured columns' values and the original JSON.
package struct RecordPage: Sendable {
    package var columns: [String]
    package var rows: [[ColumnValue]]
    package var raws: [String]
    /// The tag of this answer, moving with the endpoint's version.
    package var etag: String
    package var version: Int64
    /// When the endpoint's data last changed (a ``Timestamp``).
    package var changedAt: String?
    /// How many records the filters match, without the limit and offset; only when asked for.
    package var total: Int?

    package init(
        columns: [String], rows: [[ColumnValue]], raws: [String], etag: String, version: Int64, changedAt: String?,
        total: Int?
    ) {
        self.columns = columns
        self.rows = rows
        self.raws = raws
        self.etag = etag
        self.version = version
        self.changedAt = changedAt
        self.total = total
    }
}

/// One record's original JSON and its tag.
package struct StoredRecord: Sendable {
    package var raw: String
    package var etag: String
    package var version: Int64
    /// When this record last changed (a ``Timestamp``).
    package var changedAt: String?
    /// The endpoint's version when the record was read.
    package var endpointVersion: Int64

    package init(raw: String, etag: String, version: Int64, changedAt: String?, endpointVersion: Int64) {
        self.raw = raw
        self.etag = etag
        self.version = version
        self.changedAt = changedAt
        self.endpointVersion = endpointVersion
    }
}

/// A document endpoint's body and its tag.
package struct StoredDocument: Sendable {
    package var body: [UInt8]
    package var contentType: String?
    package var etag: String
    package var version: Int64
    package var changedAt: String?
    /// The endpoint's version when the document was read (the same as ``version`` once synced).
    package var endpointVersion: Int64

    package init(
        body: [UInt8], contentType: String?, etag: String, version: Int64, changedAt: String?, endpointVersion: Int64
    ) {
        self.body = body
        self.contentType = contentType
        self.etag = etag
        self.version = version
        self.changedAt = changedAt
        self.endpointVersion = endpointVersion
    }
}

/// What changed after a version: enough for a reader to mirror the endpoint incrementally.
package struct ChangeBatch: Sendable {
    /// The `since` of the reader's next request: the endpoint's version when this answer holds everything, else
    /// the highest version whose every change the walk so far has handed out.
    package var version: Int64
    /// The endpoint's version when the changes were read.
    package var endpointVersion: Int64
    /// The original JSON of every record whose version is above `since`, by version then key.
    package var changed: [String]
    /// The keys of ``changed``, in the same order, as JSON (a value, or an array for a composite key).
    package var changedKeys: [String]
    /// For each of ``changed``: whether it was first stored after `since` (an insert) rather than updated. A row
    /// stored before syncd kept first versions counts as updated.
    package var inserted: [Bool]
    /// The keys (as JSON: a value, or an array for a composite key) deleted after `since`.
    package var deleted: [String]
    package var etag: String
    package var changedAt: String?
    /// Where the next part of the feed starts, when this answer was capped; `nil` when it holds everything up to
    /// ``version``.
    package var next: ChangePosition?
    /// Where this answer's last change is in the feed; `nil` when it holds none. A reader that has taken every change
    /// up to here resumes after it (the read API's event stream sends it as each event's `id`).
    package var last: ChangePosition?

    /// Ends a capped answer after the change at `last`, the next one being at `following`: ``next`` is `last`, and
    /// ``version`` the highest version whose every change the walk has handed out (versions below the next change's
    /// are whole; the last one only if the next change is of a later version).
    package mutating func stop(after last: ChangePosition, before following: ChangePosition, since: Int64) {
        version = max(since, following.version > last.version ? last.version : last.version - 1)
        next = last
    }

    package init(
        version: Int64, endpointVersion: Int64, changed: [String], changedKeys: [String], inserted: [Bool],
        deleted: [String], etag: String, changedAt: String?, next: ChangePosition? = nil
    ) {
        self.version = version
        self.endpointVersion = endpointVersion
        self.changed = changed
        self.changedKeys = changedKeys
        self.inserted = inserted
        self.deleted = deleted
        self.etag = etag
        self.changedAt = changedAt
        self.next = next
    }
}
