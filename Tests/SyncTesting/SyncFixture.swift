import Foundation
import Logging
package import SyncCore
package import SyncHTTP
package import SyncRuntime
package import SyncSQLite
import Synchronization

/// A test clock: seconds since 1970 that only the test moves.
package final class TestClock: Sendable {
    private let seconds = Mutex<Double>(1_700_000_000)

    package init() {}

    package var now: Double { seconds.withLock { $0 } }

    package func advance(by interval: Double) { seconds.withLock { $0 += interval } }
}

/// The waits an engine asked for between attempts; none of them is actually waited.
package final class SleepRecorder: Sendable {
    private let recorded = Mutex<[Duration]>([])

    package init() {}

    package var durations: [Duration] { recorded.withLock { $0 } }

    package func record(_ duration: Duration) { recorded.withLock { $0.append(duration) } }
}

/// A database in a temporary directory, a configuration parsed from TOML, and an engine with a test clock.
package struct SyncFixture {
    package let directory: TemporaryDirectory
    package let database: DatabaseQueue
    package let clock = TestClock()
    package let sleeps = SleepRecorder()
    /// An HTTP client of the fixture's own. With one client shared by every test, a run now and then waited its
    /// whole timeout (30 s) for a redirect's next answer, in about one whole suite in eight, only with the other
    /// suites running: the suspicion is a pooled connection to a port whose test server had shut down and whose
    /// number another test's server then took. Each fixture's own pool cannot meet another test's ports.
    package let http = HTTPTransport()
    package var configuration: SyncConfiguration
    package var environment: [String: String] = [:]
    /// Whether the engine's sleep moves the test clock on by what it was asked to wait, as real time would.
    package var sleepAdvancesClock = false
    /// The OAuth2 tokens the engines share, as one process's do; nil gives each engine its own.
    package var tokens: OAuth2Tokens?

    package init(toml: String) throws {
        directory = try TemporaryDirectory()
        configuration = try SyncConfiguration.parse(toml, sourcePath: directory.file("syncd.toml"))
        database = try DatabaseQueue(path: directory.file("cache.db"))
        _ = try database.performBlocking { try Migrator.embedded.migrate($0) }
    }

    /// Replaces the configuration, as an edited file would.
    package mutating func reconfigure(_ toml: String) throws {
        configuration = try SyncConfiguration.parse(toml, sourcePath: directory.file("syncd.toml"))
    }

    package var engine: SyncEngine {
        let clock = self.clock
        let sleeps = self.sleeps
        let advances = sleepAdvancesClock
        return SyncEngine(
            storage: SQLiteSyncStorage(database: database), transport: SchemeTransport(http: http),
            environment: environment,
            logger: Logger(label: "test"), now: { clock.now },
            sleep: { duration in
                sleeps.record(duration)
                if advances { clock.advance(by: SyncEngine.seconds(duration)) }
            }, tokens: tokens)
    }

    package func endpoint(_ name: String) throws -> EndpointConfiguration {
        guard let endpoint = configuration.plan(named: name) else { throw FixtureError.noEndpoint(name) }
        return endpoint
    }

    /// Syncs one endpoint and returns its report.
    package func sync(_ name: String) async throws -> SyncSummary {
        await engine.sync(try endpoint(name))
    }

    /// Reads with a connection of its own, as any other reader would.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try Database(path: directory.file("cache.db"), mode: .readOnly)
        return try body(reader)
    }

    package func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [Row] {
        try read { try $0.rows(sql, arguments) }
    }

    package func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        try read { try $0.scalar(sql, arguments) }
    }
}

package enum FixtureError: Error {
    case noEndpoint(String)
}

/// One HTTP client for the whole test process, as the daemon has one.
package enum SharedTransport {
    package static let http = HTTPTransport()
}
