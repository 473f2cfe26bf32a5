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

    static func pick(_ database: DatabaseQueue, endpoint: EndpointConfiguration, users: Int) throws -> DemoExample {
        try database.performBlocking { database in
            let key: String
            if case .integer(let id)? = try database.scalar("SELECT id FROM users ORDER BY id = 3 DESC, id LIMIT 1") {
                key = String(id)
            } else {
                key = "3"
            }
            var city = SampleUsers.aCity(count: users)
            if case .text(let busiest)? = try database.scalar(
                "SELECT city FROM users WHERE city IS NOT NULL GROUP BY city ORDER BY count(*) DESC, city LIMIT 1")
            {
                city = busiest
            }
            let etag = try RecordReader(database: database, endpoint: endpoint).record(key: [key])?.etag
            return DemoExample(key: key, city: city, etag: etag ?? "\"\"")
        }
    }
}
