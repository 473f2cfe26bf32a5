import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncPersistence
@testable import SyncSQLite

/// Records are stored 32 to a statement (RecordUpsert): the rows must come out exactly as one statement a record
/// stores them, in the same order.
@Suite("sync: records stored in groups")
struct RecordUpsertTests {
    /// An `items` body of records `(id, time, gone)` for IncrementalTests' endpoint.
    static func body(_ records: [(id: Int, time: String, gone: Bool)]) -> String {
        let items = records.map { record in
            #"{"id": \#(record.id), "updated_at": "\#(record.time)"\#(record.gone ? #", "gone": true"# : "")}"#
        }
        return #"{"items": [\#(items.joined(separator: ", "))]}"#
    }

    static func times(_ fixture: SyncFixture) throws -> [Int64: String] {
        let rows = try fixture.rows("SELECT id, updated_at FROM items")
        return Dictionary(
            rows.compactMap { row in row.integer("id").flatMap { id in row.text("updated_at").map { (id, $0) } } },
            uniquingKeysWith: { first, _ in first })
    }

    @Test("each record's values land in its own row; of a key repeated across groups or within one, the last wins")
    func groupsAndRepeats() async throws {
        try await withTestUpstream { upstream in
            var records = (1...70).map {
                (id: $0, time: "2024-05-01T00:00:\(String(format: "%02d", $0 % 60))Z", gone: false)
            }
            records.insert((id: 12, time: "2024-06-12T00:00:00Z", gone: false), at: 12)  // beside itself, one group
            records.insert((id: 7, time: "2024-06-07T00:00:00Z", gone: false), at: 50)  // another group
            let body = SharedValue(Self.body(records))
            upstream.route("/items") { _ in jsonAnswer(body.value) }
            let incremental = #"{ param = "since", column = "updated_at", deleted_flag = "gone" }"#
            let fixture = try IncrementalFixture.fixture(
                toml: IncrementalFixture.toml(upstream.url("/items"), incremental: incremental))
            let first = try await fixture.sync("items")
            #expect(first.outcome == .changed && first.inserted == 70 && first.updated == 2)
            let times = try Self.times(fixture)
            #expect(times.count == 70)
            for id in 1...70 where id != 7 && id != 12 {
                #expect(times[Int64(id)] == "2024-05-01T00:00:\(String(format: "%02d", id % 60)).000Z", "id \(id)")
            }
            #expect(times[7] == "2024-06-07T00:00:00.000Z" && times[12] == "2024-06-12T00:00:00.000Z")
            let raw = try fixture.scalar("SELECT _raw FROM items WHERE id = 33")
            #expect(raw == .text(#"{"id": 33, "updated_at": "2024-05-01T00:00:33Z"}"#))
            #expect(
                try fixture.scalar("SELECT count(*) FROM items WHERE _version = 1 AND _created_version = 1")
                    == .integer(70))
        }
    }

    @Test("a deletion waits for the records before it: a key stored and then deleted in one body is gone")
    func deletionAfterStore() async throws {
        try await withTestUpstream { upstream in
            let body = SharedValue(Self.body((1...50).map { (id: $0, time: "2024-05-01T00:00:00Z", gone: false) }))
            upstream.route("/items") { _ in jsonAnswer(body.value) }
            let incremental = #"{ param = "since", column = "updated_at", deleted_flag = "gone" }"#
            let fixture = try IncrementalFixture.fixture(
                toml: IncrementalFixture.toml(upstream.url("/items"), incremental: incremental))
            _ = try await fixture.sync("items")

            // 40 new records (a group and more), key 40 changed, then deleted; key 41 deleted; 8 more new ones.
            var records = (101...140).map { (id: $0, time: "2024-05-02T00:00:00Z", gone: false) }
            records.append((id: 40, time: "2024-05-03T00:00:00Z", gone: false))
            records += (141...150).map { (id: $0, time: "2024-05-02T00:00:00Z", gone: false) }
            records.append((id: 40, time: "2024-05-04T00:00:00Z", gone: true))
            records.append((id: 41, time: "2024-05-04T00:00:00Z", gone: true))
            records += (151...158).map { (id: $0, time: "2024-05-02T00:00:00Z", gone: false) }
            body.value = Self.body(records)
            let second = try await fixture.sync("items")
            #expect(second.outcome == .changed && second.inserted == 58 && second.deleted == 2)
            #expect(
                try IncrementalFixture.ids(fixture) == (1...39).map(Int64.init) + (42...50).map(Int64.init)
                    + (101...158).map(Int64.init))
            let tombstones = try fixture.rows("SELECT key FROM syncd_tombstones ORDER BY key").compactMap {
                $0.text("key")
            }
            #expect(tombstones == ["40", "41"])
        }
    }

    @Test(
        "a group is 32 records, fewer when the columns would pass SQLite's limit on parameters, 1 when two do not fit")
    func groupSize() {
        #expect(RecordUpsert.groupSize(columns: 8, variableLimit: 32_766) == 32)
        #expect(RecordUpsert.groupSize(columns: 1_999, variableLimit: 32_766) == 16)
        #expect(RecordUpsert.groupSize(columns: 40, variableLimit: 999) == 24)
        #expect(RecordUpsert.groupSize(columns: 500, variableLimit: 999) == 1)
    }
}
