import SampleUpstream
import SyncCore

/// The user and the city the demo's printed commands name: read from the table after the passes, so that they
/// exist whatever `--users` was and whatever pass 2 deleted.
struct DemoExample: Sendable {
    /// A stored user's key: 3 when it is stored, else the smallest.
    var key: String
    /// The city most stored users live in.
    var city: String
    /// The ETag of the user `key`, for the 304 the demo shows.
    var etag: String

    /// Reads the stored users as any reader would, through a cache.
    static func pick(_ cache: SyncCache, users: Int) async throws -> DemoExample {
        let table = try await cache.table(from: "users", order: [.ascending("id")])
        let ids = table.column("id").compactMap { value -> Int64? in
            if case .integer(let id) = value { return id }
            return nil
        }
        let key = String(ids.contains(3) ? 3 : ids.first ?? 3)
        var counts: [String: Int] = [:]
        for case .text(let city) in table.column("city") { counts[city, default: 0] += 1 }
        // The busiest city; among equals, the first by name.
        let busiest = counts.min { ($1.value, $0.key) < ($0.value, $1.key) }?.key
        let etag = try await cache.recordJSON(from: "users", key: [key])?.etag
        return DemoExample(key: key, city: busiest ?? SampleUsers.aCity(count: users), etag: etag ?? "\"\"")
    }
}

extension SyncCache.Table {
    /// The values of one column, in the table's order; empty when it has no such column.
    fileprivate func column(_ name: String) -> [SyncCache.SQLValue] {
        guard let index = columns.firstIndex(of: name) else { return [] }
        return rows.map { index < $0.count ? $0[index] : .null }
    }
}
