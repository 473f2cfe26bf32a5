import Testing

@testable import SyncCore
@testable import SyncIngest

/// What `on_status` asks of every storage, through the protocol alone: a body of no pages is an empty set (refused
/// over stored rows unless `allow_empty`, then deleting them), and a skip is a 304 with the status the upstream sent.
extension StorageConformanceTests {
    @Test("a body of no pages is an empty set, and a skip keeps the rows with its status", arguments: Kind.all)
    func statusAnswers(kind: Kind) async throws {
        let storage = try await kind.make(in: directory, open)
        _ = try await storage.applyCollection(try body([1, 2], in: storage), run: users, facts: Self.facts())
        let skipped = try await storage.applyNotModified(run: users, facts: Self.facts(status: 403))
        #expect((skipped.outcome, skipped.skippedStatus, skipped.records) == (.notModified, 403, 2))
        let empty = DecodedBody(spool: BodySpool(directory: storage.spoolDirectory), pages: [])
        await #expect(throws: StoreError.emptySnapshot) {
            try await storage.applyCollection(empty, run: users, facts: Self.facts(status: 404))
        }
        var allowing = users
        allowing.endpoint.allowEmpty = true
        let emptied = try await storage.applyCollection(empty, run: allowing, facts: Self.facts(status: 404))
        #expect((emptied.outcome, emptied.deleted, emptied.records, emptied.version) == (.changed, 2, 0, 2))
        let state = try #require(try await storage.state(of: "users"))
        #expect((state.recordCount, state.lastStatus, state.etag) == (0, 404, nil))
    }
}
