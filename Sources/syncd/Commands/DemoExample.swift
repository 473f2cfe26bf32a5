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

    /// How many users one read brings into memory.
    static let chunk = 1000

    /// Reads the stored users as any reader would, through a cache, a chunk at a time in key order: the whole table
    /// of the largest demo, 1,000,000 users with their JSON, would take over a gigabyte.
    static func pick(_ cache: SyncCache, users: Int) async throws -> DemoExample {
        var counts: [String: Int] = [:]
        var first: Int64?
        var after: Int64?
        while true {
            let filters =
                after.flatMap { RecordFilter(column: "id", operatorName: "gt", values: [String($0)]) }
                .map { [$0] } ?? []
            let table = try await cache.table(from: "users", where: filters, order: [.ascending("id")], limit: chunk)
            let ids = table.column("id").compactMap { value -> Int64? in
                if case .integer(let id) = value { return id }
                return nil
            }
            for case .text(let city) in table.column("city") { counts[city, default: 0] += 1 }
            first = first ?? ids.first
            guard table.rows.count == chunk, let last = ids.last else { break }
            after = last
        }
        let three = try await cache.recordJSON(from: "users", key: ["3"])
        let key = three != nil ? "3" : String(first ?? 3)
        // The busiest city; among equals, the first by name.
        let busiest = counts.min { ($1.value, $0.key) < ($0.value, $1.key) }?.key
        var etag = three?.etag
        if etag == nil { etag = try await cache.recordJSON(from: "users", key: [key])?.etag }
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
