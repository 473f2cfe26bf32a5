// Syncs a users endpoint into a local database and reads it back, typed.
//
//   swift run syncd demo                                   # prints "a sample upstream is serving … at URL"
//   swift run --package-path examples/SyncCoreExample syncd-example URL [DATABASE]
import Foundation
import SyncCore

struct User: Decodable, Sendable {
    var id: Int
    var name: String
    var email: String
    var address: Address

    struct Address: Decodable, Sendable {
        var city: String
    }
}

struct ShortNames {
    var length: Int
}

/// A user whose name is cut to the length its decoder's context asks for.
struct ShortUser: Decodable {
    var name: String

    init(from decoder: any Decoder) throws {
        struct Plain: Decodable { var name: String }
        let full = try Plain(from: decoder).name
        name = String(full.prefix(decoder.context(ShortNames.self)?.length ?? full.count))
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard let url = arguments.first else {
    FileHandle.standardError.write(Data("usage: syncd-example URL [DATABASE]\n".utf8))
    exit(64)
}
let databasePath = arguments.dropFirst().first ?? "example.db"

do {
    let configuration = try SyncConfiguration(endpoints: [
        SyncEndpoint(
            name: "users", url: url, records: "$", primaryKey: ["id"],
            columns: [
                .init("id", type: .integer), .init("name"), .init("email", required: true),
                .init("city", path: "address.city"),
            ],
            interval: .seconds(30))
    ])
    // The front door: one cache syncs, reads, follows changes and fetches single URLs.
    let cache = try SyncCache(path: databasePath, configuration: configuration)
    let summary = try await cache.sync("users")
    print(summary)

    let page = try await cache.records(User.self, from: "users", order: [.ascending("name")], limit: 3)
    for user in page.values { print("  \(user.name) <\(user.email)> in \(user.address.city)") }
    print("tag \(page.etag); \(page.failures.count) records did not decode")

    let again = try await cache.sync("users")
    print(again)
    print("modified since the first read: \(try await cache.isModified("users", since: page.etag))")
    let changes = try await cache.changes("users", since: 0)
    print("changes since version 0: \(changes.changed.count) records, \(changes.deleted.count) deletions")
    // A live query: the records now, then again after each sync that changes them (here, only the first).
    for try await current in cache.values(User.self, from: "users") {
        print("live query: \(current.values.count) users at version \(current.version)")
        break
    }

    // Offline-first fetch of any URL into the same database: the second answer comes from the cache.
    for _ in 0..<2 {
        let answer = try await cache.fetch(url, maxAge: .seconds(60)) { data in
            try JSONDecoder().decode([User].self, from: data).count
        }
        print("resource cache: \(answer.value) users from \(answer.source)")
    }
    try await cache.shutdown()

    // The same API without the cache: a typed fetch, a Resource, resilient decoding and JSON paths.
    guard let slash = url.range(of: "/", options: .backwards) else { exit(64) }
    let endpoint = APIRequest(baseURL: String(url[..<slash.lowerBound]), path: String(url[slash.lowerBound...]))
    try await APIClient.withClient { client in
        let names = Resource(request: endpoint, as: [User].self).map { $0.map(\.name) }
        print("fetched \(try await client.fetch(names).count) names")
        let body = try await client.response(for: endpoint).body
        let salvaged = try ResilientDecoder().decodeArray(User.self, from: body, named: "users")
        print("resilient: \(salvaged.values.count) users, \(salvaged.problems.count) problems")
        let document = try JSONDecoder().decode(JSONValue.self, from: body)
        print("first city: \(document[path: "[0].address.city"]?.stringValue ?? "-")")

        // Context for decoding, through userInfo: here, how many characters of a name to show.
        let decoder = JSONDecoder()
        decoder.userInfo[.syncdContext] = ShortNames(length: 5)
        let short = try decoder.decode([ShortUser].self, from: body)
        print("short names: \(short.prefix(3).map(\.name).joined(separator: ", "))")
    }
} catch {
    FileHandle.standardError.write(Data("syncd-example: \(error)\n".utf8))
    exit(1)
}
