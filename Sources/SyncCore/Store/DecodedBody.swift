/// A collection body on disk, validated and decoded once as it streamed in, before the transaction.
package struct DecodedBody: Sendable {
    package var spool: BodySpool
    /// Where each page's body is in the spool, in the order fetched.
    package var pages: [Range<Int>]
    package var records: Int
    package var rejected: Int
    /// The first ``SyncWriter/storedProblemLimit`` problems.
    package var problems: [DecodingProblem]

    package init(
        spool: BodySpool, pages: [Range<Int>]? = nil, records: Int, rejected: Int, problems: [DecodingProblem]
    ) {
        self.spool = spool
        self.pages = pages ?? [0..<spool.count]
        self.records = records
        self.rejected = rejected
        self.problems = problems
    }
}
