import SyncHTTP
import SyncIngest
import SyncModel
import SyncPersistence
internal import SyncSQLite
import SyncSupport

extension SyncEngine {
    /// What a first page's error status means by the endpoint's `on_status` (``StatusPolicy``): the run's report for
    /// a status it maps, nil for one it does not (the run then fails as for any error status).
    ///
    /// `skip` keeps the stored data as a 304 does, and is recorded so: outcome `not_modified`, the status sent, the
    /// stored validators kept (``SyncSummary/skippedStatus``). `empty` applies a collection with no records: the
    /// validators are cleared (the next request asks afresh), and the guards hold — a snapshot with stored rows is
    /// emptied only with `allow_empty`, else the run is refused with the guard's sentence.
    func applyMappedStatus(
        _ response: FetchResponse, endpoint: EndpointConfiguration, run: SyncRun,
        facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary? {
        let name = endpoint.name.name
        // The answer's validators are not the data's: neither is stored.
        let answerFacts: @Sendable () -> RunFacts = {
            var facts = facts()
            (facts.etag, facts.lastModified) = (nil, nil)
            return facts
        }
        switch endpoint.statusPolicy.decision(for: response.status) {
        case .fail:
            return nil
        case .skip:
            do {
                return try await storage.applyNotModified(run: run, facts: answerFacts)
            } catch let error as StoreError {
                throw SyncFailure(message: "\(name): \(error)", status: response.status, bytes: 0)
            }
        case .empty:
            guard !endpoint.isDocument else { return nil }
            let empty = DecodedBody(spool: BodySpool(directory: spoolDirectory), pages: [])
            do {
                return try await storage.applyCollection(empty, run: run, facts: answerFacts)
            } catch let error as StoreError where error == .emptySnapshot || error == .tooManyDeletions {
                var sentence = error.description
                if sentence.hasPrefix("\(name): ") { sentence.removeFirst(name.count + 2) }
                let status = "HTTP \(response.status) \(HTTPStatusText.reason(response.status))"
                throw SyncFailure(
                    message: "\(name): \(status) is an empty set by on_status, but \(sentence)",
                    status: response.status, bytes: 0, outcome: .refused)
            } catch let error as StoreError {
                throw SyncFailure(message: "\(name): \(error)", status: response.status, bytes: 0)
            }
        }
    }
}
