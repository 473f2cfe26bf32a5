import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncServe

/// A 503 is one sentence and `Retry-After: 1`, whether reads queue up or the database fails underneath; what went
/// wrong inside goes to the daemon's log, never to the client.
@Suite("read API: 503 answers")
struct ReadAPIUnavailableTests {
    @Test("a read the database fails is a 503 with Retry-After that carries none of SQLite's text")
    func databaseFails() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            #expect(try await api.get("/v1/endpoints/users/records").status == 200)
            // A column renamed behind the daemon's back, as an operator's sqlite3 session could do.
            try fixture.database.performBlocking { try $0.execute("ALTER TABLE users RENAME COLUMN _raw TO gone") }
            let answer = try await api.get("/v1/endpoints/users/records?limit=1")
            #expect(answer.status == 503)
            #expect(answer.header("Retry-After") == "1")
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(answer.body.contains("The database cannot be read right now; the daemon's log says why."))
            #expect(!answer.body.contains("no such column"))
            #expect(!answer.body.contains("_raw"))
        }
    }

    @Test("a read session beyond the pool's waiting bound is SyncError.busy, with the sentence the 503 says")
    func sessionBusy() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let path = fixture.directory.file("cache.db")
        let pool = try ReadConnectionPool(path: path, maxWaiting: 0)
        let cache = SyncCache(
            reading: SQLiteReadStorage(pool: pool), of: .sqlite(path: path), configuration: fixture.configuration)
        try await whileReadsHold(ReadConnectionPool.defaultCount, of: pool) {
            let busy = await #expect(throws: SyncError.busy) { try await cache.read { try $0.instance() } }
            #expect(busy?.description == "too many reads are waiting for the database; try again in a moment")
            let answer = busy.map { ReadAPIError($0, parameter: "query") }
            #expect(answer?.status == 503 && answer?.code == "unavailable")
        }
        #expect(try await cache.read { try $0.statuses() }.count == 3)
        #expect(
            ReadAPIError(SyncError.readFailed("disk I/O error at /var/lib"), parameter: "q").detail
                == "The database cannot be read right now; the daemon's log says why.")
    }

    @Test("a read beyond the pool's waiting bound is a 503 with Retry-After, and reads are answered once it drains")
    func queueFull() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let pool = try ReadConnectionPool(path: fixture.directory.file("cache.db"), maxWaiting: 0)
        try await ReadAPIHarness.with(fixture, pool: pool) { api in
            try await whileReadsHold(ReadConnectionPool.defaultCount, of: pool) {
                let answer = try await api.get("/v1/endpoints/users/records")
                #expect(answer.status == 503)
                #expect(answer.header("Retry-After") == "1")
                #expect(answer.body.contains("Too many reads are waiting for the database; try again in a moment."))
            }
            #expect(try await api.get("/v1/endpoints/users/records").status == 200)
        }
    }
}
