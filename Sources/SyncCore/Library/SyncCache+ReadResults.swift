public import SyncPersistence

/// What a ``SyncCache/Reader`` returns: the stored data as stored — records' JSON as received, a document's bytes, a
/// part of the change feed, the recent runs — each with the entity tag and versions a program revalidates with.
///
/// Each wraps what the store read, so that handing it on copies nothing: its arrays are the store's own.
extension SyncCache {
    /// A page of an endpoint's records, as stored: what the read API's list answers send.
    public struct RecordList: Sendable {
        let base: RecordPage
        let columns: [ColumnSpec]

        /// Each record's JSON as the upstream sent it, in the query's order.
        public var json: [String] { base.raws }
        /// The strong entity tag of the endpoint's data, quoted: it moves with the endpoint's ``version``.
        public var etag: String { base.etag }
        /// The endpoint's version when the records were read.
        public var version: Int64 { base.version }
        /// When the endpoint's data last changed (RFC 3339, UTC); nil before its first change.
        public var changedAt: String? { base.changedAt }
        /// How many records the filters match, without the limit and offset; nil unless the read counted them.
        public var total: Int? { base.total }

        /// The record at `index` (an index of ``json``) as a JSON object of some configured columns, `{"a":1,"b":"x"}`,
        /// each value as its column's type reads (a boolean column gives `true`, a `json` column its JSON as stored).
        ///
        /// - Parameters:
        ///   - index: The record's position in ``json``, from 0.
        ///   - columns: Indices into the endpoint's configured columns, in the order the object lists them.
        public func object(at index: Int, columns: [Int]) -> String {
            ColumnJSON.object(selecting: columns, of: self.columns, base.rows[index])
        }

        /// The page as a ``SyncCache/Table``, as ``SyncCache/table(from:where:order:limit:offset:)`` returns it:
        /// each record's configured columns beside its JSON.
        public var table: Table { Table(base) }
    }

    /// One record's JSON as stored, with its own entity tag and version.
    public struct RecordJSON: Sendable {
        let base: StoredRecord

        /// The record's JSON as the upstream sent it.
        public var json: String { base.raw }
        /// The record's strong entity tag, quoted: it moves with the record's own ``version``.
        public var etag: String { base.etag }
        /// The version at which the record last changed.
        public var version: Int64 { base.version }
        /// When the record last changed (RFC 3339, UTC).
        public var changedAt: String? { base.changedAt }
        /// The endpoint's version when the record was read: a program that keeps the record may keep it while the
        /// endpoint's version stays.
        public var endpointVersion: Int64 { base.endpointVersion }
    }

    /// A document endpoint's body as stored.
    public struct Document: Sendable {
        let base: StoredDocument

        /// The body's bytes as received.
        public var body: [UInt8] { base.body }
        /// The `Content-Type` the upstream sent with it, when it sent one.
        public var contentType: String? { base.contentType }
        /// The document's strong entity tag, quoted.
        public var etag: String { base.etag }
        /// The version at which the document last changed.
        public var version: Int64 { base.version }
        /// When the document last changed (RFC 3339, UTC).
        public var changedAt: String? { base.changedAt }
        /// The endpoint's version when the document was read.
        public var endpointVersion: Int64 { base.endpointVersion }
    }

    /// A place in an endpoint's change feed, between two changes: where a capped answer stopped and the next one
    /// starts.
    ///
    /// The feed orders every change by version, then the changed records of that version before its deletions. A
    /// sync never gives a change a version at or below one already committed, so a change that happens while a
    /// reader walks the feed lands after every position already handed out: a reader that follows the positions to
    /// the end misses nothing, and sees a record again only when it changed again.
    ///
    /// Written as `VERSION.r.ROWID` (after a changed record) or `VERSION.d.ROWID` (after a deletion), e.g.
    /// `12.r.4031`: the text a program hands back (the read API's `after=`).
    public struct FeedPosition: Sendable, Hashable, CustomStringConvertible {
        package let base: ChangePosition

        package init(_ base: ChangePosition) {
            self.base = base
        }

        /// Reads a position from its text, `VERSION.r.ROWID` or `VERSION.d.ROWID`; nil for anything else.
        public init?(_ text: some StringProtocol) {
            guard let base = ChangePosition(text) else { return nil }
            self.base = base
        }

        /// The version of the last change handed out before it.
        public var version: Int64 { base.version }

        /// `VERSION.r.ROWID` or `VERSION.d.ROWID`.
        public var description: String { base.description }
    }

    /// A part of an endpoint's change feed: the records changed and the keys deleted after a version, whole or cut
    /// where the reader's cap was reached (then ``next`` says where the next part starts).
    public struct ChangeList: Sendable {
        let base: ChangeBatch

        /// The `since` of the reader's next request: the endpoint's version when this part holds everything, else
        /// the highest version whose every change this walk has handed out.
        public var version: Int64 { base.version }
        /// The endpoint's version when the changes were read.
        public var endpointVersion: Int64 { base.endpointVersion }
        /// The JSON of every changed record, by version then key.
        public var changed: [String] { base.changed }
        /// The keys deleted, each as JSON: a value, or an array for a composite key.
        public var deleted: [String] { base.deleted }
        /// The strong entity tag of the endpoint's data, quoted.
        public var etag: String { base.etag }
        /// When the endpoint's data last changed (RFC 3339, UTC).
        public var changedAt: String? { base.changedAt }
        /// Where the next part starts when this one was capped; nil when it holds everything up to ``version``.
        public var next: FeedPosition? { base.next.map(FeedPosition.init) }
        /// Where this part's last change is in the feed; nil when it holds none. Whoever has taken every change up
        /// to it continues with `after` set to it (and any `since`): the read API's event stream sends it as each
        /// event's `id`.
        public var last: FeedPosition? { base.last.map(FeedPosition.init) }
    }

    /// One recent run of an endpoint: how long its sync took, how it ended and how many records it received.
    public struct Run: Sendable, Hashable {
        let base: RecentRun

        /// The endpoint's name.
        public var endpoint: String { base.endpoint }
        /// When the run started (RFC 3339, UTC).
        public var startedAt: String { base.startedAt }
        /// How long it took, in milliseconds; never negative.
        public var durationMilliseconds: Int64 { base.durationMilliseconds }
        /// How it ended.
        public var outcome: SyncSummary.Outcome { base.outcome }
        /// The records its answer held (0 for a 304 or a failure); never negative.
        public var records: Int64 { base.records }

        /// A run as given (a status page's test, say); a negative duration or count is taken as 0.
        public init(
            endpoint: String, startedAt: String, durationMilliseconds: Int64, outcome: SyncSummary.Outcome,
            records: Int64
        ) {
            base = RecentRun(
                endpoint: endpoint, startedAt: startedAt, durationMilliseconds: durationMilliseconds,
                outcome: outcome, records: records)
        }

        init(_ base: RecentRun) {
            self.base = base
        }
    }
}
