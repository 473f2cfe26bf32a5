import Dispatch
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A run says when its answer is in, before storing it: the scheduler's slot then fetches for another endpoint
/// (``ScheduleStateMachine/fetched(_:)``); and it starts without waiting for another run's transaction.
@Suite("sync: a run's answer is in before it is stored, and its start waits for no other run's")
struct FetchedSignalTests {
    static func toml(_ upstream: TestUpstream) -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(upstream.url("/users"))"
        records = "$"
        primary_key = ["id"]
        retries = 0

        [endpoint.columns]
        id = { path = "id", type = "integer" }

        [[endpoint]]
        name = "flags"
        url = "\(upstream.url("/flags.json"))"
        """
    }

    /// Syncs `name`, and returns its report and, for each time it said its answer was in, how many runs the
    /// database held then (read on a connection of its own, as any reader would).
    static func sync(_ name: String, _ fixture: SyncFixture) async throws -> (SyncSummary, [Int64]) {
        let path = fixture.directory.file("cache.db")
        let runsWhenFetched = Mutex<[Int64]>([])
        let report = await fixture.engine.sync(try fixture.endpoint(name)) {
            let reader = try? Database(path: path, mode: .readOnly)
            guard case .integer(let runs)? = try? reader?.scalar("SELECT count(*) FROM syncd_runs") else {
                runsWhenFetched.withLock { $0.append(-1) }
                return
            }
            runsWhenFetched.withLock { $0.append(runs) }
        }
        return (report, runsWhenFetched.withLock { $0 })
    }

    @Test("a collection's run says so once, before anything of it is stored, and so does a failed fetch")
    func collection() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1}, {"id": 2}]"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream))

            let (stored, whenStored) = try await Self.sync("users", fixture)
            #expect(stored.outcome == .changed)
            #expect(whenStored == [0])

            upstream.set("/users", UpstreamResponse(status: 500))
            let (failed, whenFailed) = try await Self.sync("users", fixture)
            #expect(failed.outcome == .failed)
            #expect(whenFailed == [1])
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_runs") == .integer(2))
        }
    }

    @Test("a document's run keeps its slot to the end: its body waits in memory, not in a spool")
    func document() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/flags.json", #"{"beta": true}"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream))

            let (report, signals) = try await Self.sync("flags", fixture)
            #expect(report.outcome == .changed)
            #expect(signals.isEmpty)
        }
    }

    @Test("a run reads its endpoint's committed state while the writer is in another transaction, without waiting")
    func stateWhileWriting() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1}]"#, etag: "\"a\"")
            let fixture = try SyncFixture(toml: Self.toml(upstream))
            _ = try await fixture.sync("users")
            let storage = SQLiteSyncStorage(database: fixture.database)

            let (entered, enter) = AsyncStream.makeStream(of: Void.self)
            let release = DispatchSemaphore(value: 0)
            // Another run's transaction, open until the test lets it go (or ten seconds, so that a read that waits
            // for it fails the test rather than hanging it).
            let writing = Task {
                try await fixture.database.perform { database in
                    try database.transaction {
                        try database.execute("UPDATE syncd_endpoints SET etag = 'uncommitted' WHERE name = 'users'")
                        enter.yield()
                        // Whether the test let it go, rather than the ten seconds running out.
                        return release.wait(timeout: .now() + 10) == .success
                    }
                }
            }
            var iterator = entered.makeAsyncIterator()
            await iterator.next()

            let state = try await storage.state(of: "users")
            release.signal()
            #expect(try await writing.value, "the read waited for the transaction to end")
            #expect(state?.etag == "\"a\"")
            #expect(try await storage.state(of: "users")?.etag == "uncommitted")
        }
    }
}
