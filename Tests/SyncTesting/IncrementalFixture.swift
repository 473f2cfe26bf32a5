import Foundation
import SyncCore
import SyncSQLite

/// The incremental endpoint IncrementalTests syncs, its answers and its fixture, which the store's tests use
/// too.
package enum IncrementalFixture {
    package static func toml(_ url: String, incremental: String, extra: String = "") -> String {
        """
        [[endpoint]]
        name = "items"
        url = "\(url)"
        records = "items"
        primary_key = ["id"]
        mode = "incremental"
        incremental = \(incremental)
        \(extra)

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        updated_at = { path = "updated_at", type = "timestamp" }
        """
    }

    package static func items(_ items: [(Int, String)], deleted: Set<Int> = []) -> String {
        let records = items.map { id, time in
            #"{"id": \#(id), "updated_at": "\#(time)"\#(deleted.contains(id) ? #", "gone": true"# : "")}"#
        }
        return #"{"items": [\#(records.joined(separator: ", "))]}"#
    }

    /// A fixture whose clock reads 2024-11-13, after every timestamp of these tests: a cursor value more than a
    /// day after the sync is not adopted.
    package static func fixture(toml: String) throws -> SyncFixture {
        let fixture = try SyncFixture(toml: toml)
        fixture.clock.advance(by: 365 * 86_400)
        return fixture
    }

    package static func ids(_ fixture: SyncFixture) throws -> [Int64] {
        try fixture.rows("SELECT id FROM items ORDER BY id").compactMap { $0.integer("id") }
    }
}
