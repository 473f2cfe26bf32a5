import Foundation
import SyncCore

/// The read API tests' database: users (an integer key), regions (a composite key) and flags (a document), synced
/// from files that a test rewrites.
package enum ReadAPIFixture {
    /// Users (integer key), regions (a composite key) and flags (a document), synced from files; users are polled
    /// every `usersInterval` with a 10 s timeout.
    package static func fixture(usersInterval: String = "1m") async throws -> (SyncFixture, TemporaryDirectory) {
        let files = try TemporaryDirectory()
        try write(files, "users.json", users: [1, 2, 3, 4])
        try #"[{"country": "no", "code": "03", "name": "Oslo"}, {"country": "pe", "code": "15", "name": "Lima"}]"#
            .write(toFile: files.file("regions.json"), atomically: true, encoding: .utf8)
        try #"{"dark_mode": true}"#.write(toFile: files.file("flags.json"), atomically: true, encoding: .utf8)
        let fixture = try SyncFixture(
            toml: """
                [[endpoint]]
                name = "users"
                url = "\(URL(fileURLWithPath: files.file("users.json")).absoluteString)"
                records = "$"
                primary_key = ["id"]
                interval = "\(usersInterval)"
                timeout = "10s"

                [endpoint.columns]
                id = { path = "id", type = "integer" }
                name = "name"
                city = "city"
                active = { path = "active", type = "boolean" }

                [[endpoint]]
                name = "regions"
                url = "\(URL(fileURLWithPath: files.file("regions.json")).absoluteString)"
                records = "$"
                primary_key = ["country", "code"]

                [endpoint.columns]
                country = "country"
                code = "code"
                name = "name"

                [[endpoint]]
                name = "flags"
                url = "\(URL(fileURLWithPath: files.file("flags.json")).absoluteString)"
                """)
        for name in ["users", "regions", "flags"] { _ = try await fixture.sync(name) }
        return (fixture, files)
    }

    package static let names = [1: "Ann", 2: "Bob", 3: "Cyd", 4: "Dee", 5: "Eve"]

    package static let cities = [1: "Oslo", 2: "Lima", 3: "Oslo", 4: "Gwenborough", 5: "Lima"]

    /// Writes the users file; `generation` sets its modification time, which `file://` revalidates with.
    package static func write(
        _ files: TemporaryDirectory, _ name: String, users ids: [Int], renamed: [Int: String] = [:], generation: Int = 0
    ) throws {
        let records = ids.map { id in
            #"{"id": \#(id), "name": "\#(renamed[id] ?? names[id] ?? "?")", "city": "\#(cities[id] ?? "?")", "#
                + #""active": \#(id % 2 == 1)}"#
        }
        try "[\(records.joined(separator: ", "))]".write(toFile: files.file(name), atomically: true, encoding: .utf8)
        try touch(files.file(name), generation: generation)
    }

    /// A distinct modification time per generation, so that a rewrite within one second is still a change.
    package static func touch(_ path: String, generation: Int) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000 + Double(generation) * 100)],
            ofItemAtPath: path)
    }
}
