/// What a run reads of its endpoint's row before it writes, in any store (``StoreTransaction/openEndpoint(kind:)``).
package struct EndpointRow: Sendable, Hashable {
    package var version: Int64
    package var recordCount: Int
    package var columnsSignature: String?
    package var cursor: String?
    package var cursorColumn: String?

    package init(
        version: Int64 = 0, recordCount: Int = 0, columnsSignature: String? = nil, cursor: String? = nil,
        cursorColumn: String? = nil
    ) {
        self.version = version
        self.recordCount = recordCount
        self.columnsSignature = columnsSignature
        self.cursor = cursor
        self.cursorColumn = cursorColumn
    }

    /// The version a change makes: one more than the stored one.
    ///
    /// - Throws: ``StoreError`` when the stored version is at its limit (an edited database).
    package func nextVersion(endpoint: String) throws(StoreError) -> Int64 {
        let (next, overflow) = version.addingReportingOverflow(1)
        guard !overflow else { throw StoreError.versionExhausted(endpoint: endpoint) }
        return next
    }
}
