package import NIOCore
package import SyncIngest
import SyncSupport

extension SyncApply {
    // MARK: - Documents

    /// Applies a 200 of a document endpoint: the body is stored when it differs from the stored one.
    package func applyDocument(
        body: ByteBuffer, contentType: String?, facts: RunFacts, in transaction: inout some StoreTransaction
    ) throws -> SyncSummary {
        let state = try transaction.openEndpoint(kind: "document")
        try transaction.storeEndpointRow(kind: "document")
        var report = SyncSummary(endpoint: name, outcome: .unchanged)
        report.isDocument = true
        report.httpStatus = facts.httpStatus
        report.bytes = facts.bytes
        report.receivedRecords = 1
        report.records = 1
        let changed = try !transaction.storedDocument(equals: body)
        let newVersion = changed ? try state.nextVersion(endpoint: name) : state.version
        if changed {
            try transaction.storeDocument(
                body, contentType: contentType, version: newVersion, changedAt: Timestamp.format(facts.finishedAt))
        }
        report.outcome = changed ? .changed : .unchanged
        report.version = newVersion
        try finish(&report, facts: facts, changed: changed, recordCount: 1, shape: nil, in: &transaction)
        return report
    }

    // MARK: - Failures

    /// Records a run that stored nothing: the data stays exactly as it was. A run whose claim another node has taken
    /// records nothing either: the endpoint's state is that node's now.
    package func recordFailure(
        _ error: String, outcome: SyncSummary.Outcome = .failed, facts: RunFacts,
        in transaction: inout some StoreTransaction
    ) throws -> SyncSummary {
        let state: EndpointRow
        do {
            state = try transaction.openEndpoint(kind: kind)
        } catch let lost as StoreError where lost == .claimLost {
            var report = SyncSummary(endpoint: name, outcome: outcome)
            report.error = error
            report.httpStatus = facts.httpStatus
            return report
        }
        try transaction.storeEndpointRow(kind: kind)
        var report = SyncSummary(endpoint: name, outcome: outcome)
        report.httpStatus = facts.httpStatus
        report.bytes = facts.bytes
        report.pages = facts.pageCount
        report.error = error
        report.version = state.version
        report.records = state.recordCount
        report.fanOut = failedFanOut
        try transaction.failEndpoint(
            at: Timestamp.format(facts.finishedAt), httpStatus: facts.httpStatus, error: error, parents: failedFanOut)
        report.runID = try transaction.insertRun(RunRecord(report, facts: facts, dueAt: dueAt))
        return report
    }
}
