import Foundation
import Logging
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// Counters read from the database file, and lists grown by what an upstream sends, stay within their limits: a
/// counter at its limit fails the endpoint's run with one sentence, and a list stops growing at its cap.
@Suite("sync: counters and problem lists at their limits")
struct CounterLimitTests {
    static func setVersion(_ fixture: SyncFixture, _ name: String, to version: Int64) throws {
        try fixture.database.performBlocking { database in
            try database.execute(
                "UPDATE syncd_endpoints SET version = ? WHERE name = ?", [.integer(version), .text(name)])
        }
    }

    @Test("a collection's version edited to Int64.max fails the next run with one sentence and keeps the rows")
    func collectionVersion() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1}]"#)
            let fixture = try SyncFixture(toml: RuntimeBoundsTests.toml(upstream.url("/users")))
            #expect(try await fixture.sync("users").outcome == .changed)
            try Self.setVersion(fixture, "users", to: .max)
            upstream.setJSON("/users", #"[{"id": 1}, {"id": 2}]"#)
            for _ in 0..<2 {
                let report = try await fixture.sync("users")
                #expect(report.outcome == .failed)
                #expect(
                    report.error
                        == "users: its version in syncd_endpoints is at the largest value a version can take (the "
                        + "database file was edited); kept the stored data: rename the endpoint to start it afresh")
            }
            #expect(try fixture.rows("SELECT id FROM users").count == 1)
            #expect(try fixture.scalar("SELECT version FROM syncd_endpoints") == .integer(.max))
        }
    }

    @Test("a document's version edited to Int64.max fails the next change with one sentence and keeps the body")
    func documentVersion() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/flags.json", #"{"on": true}"#)
            let fixture = try SyncFixture(toml: RuntimeBoundsTests.document(upstream.url("/flags.json")))
            #expect(try await fixture.sync("flags").outcome == .changed)
            try Self.setVersion(fixture, "flags", to: .max)
            upstream.setJSON("/flags.json", #"{"on": false}"#)
            let report = try await fixture.sync("flags")
            #expect(report.outcome == .failed)
            #expect(report.error?.hasPrefix("flags: its version in syncd_endpoints is at the largest value") == true)
            #expect(try fixture.scalar("SELECT body FROM syncd_documents") == .blob(Array(#"{"on": true}"#.utf8)))
        }
    }

    @Test("consecutive_failures edited to Int64.max stays there on the next failure instead of overflowing")
    func failureCounter() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1}]"#)
            let fixture = try SyncFixture(toml: RuntimeBoundsTests.toml(upstream.url("/users")))
            #expect(try await fixture.sync("users").outcome == .changed)
            try fixture.database.performBlocking { database in
                try database.execute("UPDATE syncd_endpoints SET consecutive_failures = 9223372036854775807")
            }
            upstream.set("/users", jsonAnswer("{}", status: 500))
            #expect(try await fixture.sync("users").outcome == .failed)
            #expect(try fixture.scalar("SELECT consecutive_failures FROM syncd_endpoints") == .integer(.max))
        }
    }

    @Test("one key repeated thousands of times reports at most storedProblemLimit duplicates")
    func duplicatesCapped() async throws {
        try await withTestUpstream { upstream in
            let body = "[" + Array(repeating: #"{"id": 1}"#, count: 5000).joined(separator: ",") + "]"
            upstream.setJSON("/users", body)
            let fixture = try SyncFixture(toml: RuntimeBoundsTests.toml(upstream.url("/users")))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.records == 1)
            #expect(report.problems.count == RunRecord.storedProblemLimit)
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_errors") == .integer(1000))
        }
    }
}
