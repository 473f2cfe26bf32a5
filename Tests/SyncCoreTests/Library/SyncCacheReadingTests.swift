import Foundation
import SyncCore
import SyncTesting
import Testing

@testable import SyncSQLite

/// SyncCore's public reading API over a real database that real syncs filled.
@Suite("library: SyncCache reads the cache, typed")
struct SyncCacheReadingTests {
    struct User: Decodable, Sendable, Equatable {
        var id: Int
        var name: String
        var city: String
        var active: Bool
    }

    struct Region: Decodable, Sendable, Equatable {
        var country: String
        var code: String
        var name: String
    }

    struct Flags: Decodable, Sendable {
        var dark_mode: Bool
    }

    static func store() async throws -> (SyncCache, SyncFixture, TemporaryDirectory) {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        return (try SyncCache(readingFrom: fixture.directory.file("cache.db")), fixture, files)
    }

    @Test("typed records with filters and order, one record by key (composite too), a document, each with its tag")
    func reads() async throws {
        let (store, fixture, files) = try await Self.store()
        defer { _ = (fixture, files) }
        let oslo = try await store.records(
            User.self, from: "users", where: [.equal("city", "Oslo")], order: [.descending("id")])
        #expect(oslo.values.map(\.name) == ["Cyd", "Ann"])
        #expect(oslo.failures.isEmpty)
        #expect(oslo.etag.hasPrefix("\"") && oslo.etag.hasSuffix(".1\""))
        let some = try await store.records(User.self, from: "users", where: [.oneOf("id", ["2", "4"])], limit: 1)
        #expect(some.values.map(\.id) == [2])

        let bob = try #require(try await store.record(User.self, from: "users", key: "2"))
        #expect(bob.value == User(id: 2, name: "Bob", city: "Lima", active: false))
        #expect(try await store.record(User.self, from: "users", key: "99") == nil)
        let lima = try #require(try await store.record(Region.self, from: "regions", key: "pe", "15"))
        #expect(lima.value.name == "Lima")
        let flags = try #require(try await store.document(Flags.self, from: "flags"))
        #expect(flags.value.dark_mode)
    }

    @Test("a record that does not decode is reported, and the others are kept")
    func salvage() async throws {
        struct Strict: Decodable { var id: Int; var city: Int }
        let (store, fixture, files) = try await Self.store()
        defer { _ = (fixture, files) }
        let result = try await store.records(Strict.self, from: "users")
        #expect(result.values.isEmpty)
        #expect(result.failures.count == 4)
        // In the words of syncd's record problems, as ResilientDecoder reports them.
        let first = try #require(result.failures.first)
        #expect(first.id == "1" && first.index == 0 && first.path == "city" && first.expected == "integer")
        #expect(first.description.hasPrefix(#"users[id=1] > city (integer): found string ""#), "\(first)")
        struct Loose: Decodable { var id: Int; var nickname: String? }
        #expect(try await store.records(Loose.self, from: "users").values.map(\.id) == [1, 2, 3, 4])
    }

    @Test("errors say what is wrong: unknown endpoint or column, a missing file")
    func errors() async throws {
        let (store, fixture, files) = try await Self.store()
        defer { _ = (fixture, files) }
        await #expect(throws: SyncError.unknownEndpoint) {
            try await store.records(User.self, from: "nope")
        }
        do {
            _ = try await store.records(User.self, from: "users", where: [.equal("email", "x")])
            Issue.record("an unknown column was accepted")
        } catch {
            #expect("\(error)".contains("\"email\" is not a configured column of \"users\""))
        }
        let missing = #expect(throws: SyncError.cannotOpen) { try SyncCache(readingFrom: files.file("missing.db")) }
        #expect(missing?.description == "there is no database at \(files.file("missing.db"))")
    }

    @Test("isModified is false for the current tag and true after a sync changed the endpoint; changes mirror it")
    func revalidationAndChanges() async throws {
        let (store, fixture, files) = try await Self.store()
        defer { _ = (fixture, files) }
        let before = try await store.records(User.self, from: "users")
        #expect(try await store.isModified("users", since: before.etag) == false)
        #expect(try await store.isModified("users", since: "\"another-database.1\"") == true)

        try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3, 5], renamed: [2: "Rob"], generation: 1)
        _ = try await fixture.sync("users")
        #expect(try await store.isModified("users", since: before.etag) == true)
        let change = try await store.changes("users", since: before.version)
        #expect(change.version == before.version + 1)
        #expect(change.changed.map(\.key) == ["2", "5"])
        #expect(change.insertedKeys == ["5"] && change.updatedKeys == ["2"])
        #expect(change.decoded(User.self).map(\.name) == ["Rob", "Eve"])
        #expect(change.deleted == ["4"])
        let everything = try await store.changes("users", since: 0)
        #expect(everything.insertedKeys == ["1", "3", "2", "5"] && everything.updatedKeys.isEmpty)
    }

    @Test(
        "a change stream yields the next change set after a write, and a live query the records again",
        .timeLimit(.minutes(1)))
    func streams() async throws {
        let (store, fixture, files) = try await Self.store()
        defer { _ = (fixture, files) }
        var live = store.values(User.self, from: "users", every: .milliseconds(10)).makeAsyncIterator()
        let now = try #require(try await live.next())
        #expect(now.values.count == 4)
        // From the version just read, so that the write below is after the stream's start whenever its task runs.
        var changes = store.changeSets("users", since: now.version, every: .milliseconds(10)).makeAsyncIterator()

        try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3], renamed: [1: "Anna"], generation: 1)
        _ = try await fixture.sync("users")
        let change = try #require(try await changes.next())
        #expect(change.changed.map(\.key) == ["1"])
        #expect(change.deleted == ["4"])
        let after = try #require(try await live.next())
        #expect(after.values.map(\.name) == ["Anna", "Bob", "Cyd"])
    }

    @Test("a table from before syncd kept first versions gains the column; its old rows count as updated")
    func olderTable() async throws {
        let (store, fixture, files) = try await Self.store()
        defer { _ = (fixture, files) }
        try fixture.database.performBlocking { try $0.execute(#"ALTER TABLE users DROP COLUMN "_created_version""#) }
        try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3, 4, 5], renamed: [1: "Anna"], generation: 1)
        _ = try await fixture.sync("users")
        let change = try await store.changes("users", since: 1)
        #expect(change.insertedKeys == ["5"])
        #expect(change.updatedKeys == ["1"])
    }
}
