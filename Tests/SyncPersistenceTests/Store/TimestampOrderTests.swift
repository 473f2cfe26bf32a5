import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A `timestamp` column holds one width (`…00.250Z`, `…00.000Z`), so that comparing and ordering its text is
/// comparing and ordering times; a filter's operand is brought to that width whatever RFC 3339 form it has.
@Suite("store: timestamps compare and sort as times")
struct TimestampOrderTests {
    static func toml(_ url: String) -> String {
        """
        [[endpoint]]
        name = "events"
        url = "\(url)"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        seen = { path = "seen", type = "timestamp" }
        """
    }

    static let body = """
        [{"id": 1, "seen": 1714557600250}, {"id": 2, "seen": "2024-05-01T10:00:00Z"},
         {"id": 3, "seen": "2024-05-01T12:00:00.5+02:00"}, {"id": 4, "seen": "2024-05-01T10:00:00.251Z"},
         {"id": 5, "seen": null}]
        """

    func ids(_ fixture: SyncFixture, _ query: RecordQuery) throws -> [Int64] {
        try fixture.read { database in
            try RecordReader(database: database, endpoint: try fixture.endpoint("events")).records(query).rows
                .compactMap {
                    if case .integer(let id) = $0[0] { return id }
                    return nil
                }
        }
    }

    /// The upstream file's directory lives as long as the test holds it.
    let upstream: TemporaryDirectory

    init() throws {
        upstream = try TemporaryDirectory()
    }

    func fixture() async throws -> SyncFixture {
        let file = upstream.file("events.json")
        try Self.body.write(toFile: file, atomically: true, encoding: .utf8)
        let fixture = try SyncFixture(toml: Self.toml(URL(fileURLWithPath: file).absoluteString))
        #expect(try await fixture.sync("events").inserted == 5)
        return fixture
    }

    @Test("every stored timestamp has milliseconds, Unix milliseconds included")
    func storedWidth() async throws {
        let fixture = try await fixture()
        let stored = try fixture.rows("SELECT seen FROM events ORDER BY id").map { $0.text("seen") }
        #expect(
            stored == [
                "2024-05-01T10:00:00.250Z", "2024-05-01T10:00:00.000Z", "2024-05-01T10:00:00.500Z",
                "2024-05-01T10:00:00.251Z", nil,
            ])
    }

    @Test("filters take any RFC 3339 form or Unix time, and order is time order")
    func filtersAndOrder() async throws {
        let fixture = try await fixture()
        typealias F = RecordFilter
        func seen(_ op: F.Operator, _ values: String...) throws -> [Int64] {
            try ids(fixture, RecordQuery(filters: [F(column: "seen", op: op, values: values)]))
        }
        #expect(try seen(.gt, "2024-05-01T10:00:00Z") == [1, 3, 4])
        #expect(try seen(.eq, "2024-05-01T10:00:00.25Z") == [1])
        #expect(try seen(.eq, "2024-05-01T12:00:00.250+02:00") == [1])
        #expect(try seen(.eq, "1714557600250") == [1])
        #expect(try seen(.lte, "2024-05-01 10:00:00.25Z") == [1, 2])
        #expect(try seen(.in, "2024-05-01T10:00:00Z", "1714557600.5") == [2, 3])
        #expect(
            try ids(fixture, RecordQuery(order: [.init(column: "seen", nullsFirst: false)])) == [2, 1, 4, 3, 5])
        let error = try #require(throws: StoreError.self) { try seen(.gt, "yesterday") }
        #expect(error.description.contains("an RFC 3339 timestamp or Unix seconds for seen"))
    }

    @Test("rows stored before the fixed width are re-read from _raw by the next sync after migration 5")
    func upgradeRefills() async throws {
        let fixture = try await fixture()
        // As syncd before migration 5 stored them: trailing zeros dropped.
        try fixture.database.performBlocking { database in
            try database.execute(
                """
                UPDATE events SET seen = '2024-05-01T10:00:00.25Z' WHERE id = 1;
                UPDATE events SET seen = '2024-05-01T10:00:00Z' WHERE id = 2;
                DELETE FROM syncd_migrations WHERE version = 5;
                """)
            #expect(try Migrator.embedded.migrate(database).map(\.version) == [5])
        }
        _ = try await fixture.sync("events")
        let stored = try fixture.rows("SELECT seen FROM events WHERE id <= 2 ORDER BY id").map { $0.text("seen") }
        #expect(stored == ["2024-05-01T10:00:00.250Z", "2024-05-01T10:00:00.000Z"])
        let signature = try fixture.scalar("SELECT columns FROM syncd_endpoints WHERE name = 'events'")
        #expect(signature == .text(RecordTable(try fixture.endpoint("events")).columnsSignature))
    }

    @Test("a timestamp primary key stored before the fixed width takes it too, and its record is found by any form")
    func upgradeRefillsKeys() async throws {
        let file = upstream.file("readings.json")
        try #"[{"at": "2024-05-01T10:00:00Z", "v": 1}, {"at": 1714557600250, "v": 2}]"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let fixture = try SyncFixture(
            toml: """
                [[endpoint]]
                name = "readings"
                url = "\(URL(fileURLWithPath: file).absoluteString)"
                records = "$"
                primary_key = ["at"]

                [endpoint.columns]
                at = { path = "at", type = "timestamp" }
                v = { path = "v", type = "integer" }
                """)
        #expect(try await fixture.sync("readings").inserted == 2)
        try fixture.database.performBlocking { database in
            try database.execute(
                """
                UPDATE readings SET at = '2024-05-01T10:00:00Z' WHERE v = 1;
                UPDATE readings SET at = '2024-05-01T10:00:00.25Z' WHERE v = 2;
                DELETE FROM syncd_migrations WHERE version = 5;
                """)
            _ = try Migrator.embedded.migrate(database)
        }
        let report = try await fixture.sync("readings")
        #expect(report.inserted == 0 && report.deleted == 0)
        #expect(
            try fixture.rows("SELECT at FROM readings ORDER BY v").map { $0.text("at") } == [
                "2024-05-01T10:00:00.000Z", "2024-05-01T10:00:00.250Z",
            ])
        let record = try fixture.read { database in
            try RecordReader(database: database, endpoint: try fixture.endpoint("readings"))
                .record(key: ["2024-05-01T12:00:00.25+02:00"])
        }
        #expect(record?.raw == #"{"at": 1714557600250, "v": 2}"#)
    }
}
