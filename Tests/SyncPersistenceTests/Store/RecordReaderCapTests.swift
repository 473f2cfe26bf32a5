import SyncTesting
import Testing

@testable import SyncCore

/// A byte budget stops a page or a part of the change feed early, never before its first record, and the feed
/// says where the next part starts.
@Suite("store: answers stop at a byte budget")
struct RecordReaderCapTests {
    @Test("records stop once maxBytes of JSON were read, after at least one record")
    func recordsStopAtBytes() async throws {
        let fixture = try await RecordReaderTests.fixture()
        let endpoint = try fixture.endpoint("users")
        let pages = try fixture.read { database in
            let reader = RecordReader(database: database, endpoint: endpoint)
            return try [1, 100, .max].map { try reader.records(RecordQuery(), maxBytes: $0).raws.count }
        }
        // Each record is about 70 bytes: the first crosses a budget of 1, two cross 100.
        #expect(pages == [1, 2, 4])
    }

    @Test("the change feed stops at maxBytes too, and its next position continues without a gap")
    func changesStopAtBytes() async throws {
        let fixture = try await RecordReaderTests.fixture()
        let endpoint = try fixture.endpoint("users")
        let (first, rest) = try fixture.read { database in
            let reader = RecordReader(database: database, endpoint: endpoint)
            let first = try reader.changes(since: 0, maxBytes: 1)
            let rest = try reader.changes(since: 0, after: first.next)
            return (first, rest)
        }
        #expect(first.changedKeys == ["1"])
        #expect(first.next == ChangePosition(version: 1, isDeletion: false, rowid: 1))
        #expect(first.version == 0)
        #expect(rest.changedKeys == ["2", "3", "4"])
        #expect(rest.next == nil)
        #expect(rest.version == 1)
    }

    @Test("positions read back as written", arguments: ["12.r.4031", "0.d.1", "3.r.-2"])
    func positions(text: String) throws {
        #expect(try #require(ChangePosition(text)).description == text)
    }

    @Test("malformed positions are refused", arguments: ["", "1.r", "1.x.2", "a.r.1", "-1.r.1", "1.r.2.3", "1..2"])
    func badPositions(text: String) {
        #expect(ChangePosition(text) == nil)
    }
}
