import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// `on_status`: an error status of the first page that the endpoint maps is an empty set (`empty`) or keeps the
/// stored data (`skip`), with its status recorded; an unmapped status, or a mapped one on a later page, fails the run
/// as before. Against a loopback upstream and a real SQLite file.
@Suite("sync: on_status")
struct OnStatusTests {
    /// HTTP behaviour's endpoint (users, `data`, id and name), with statuses mapped.
    static func toml(_ url: String, extra: String = "") -> String {
        HTTPBehaviourFixture.toml(
            url, extra: #"on_status = { 404 = "empty", 410 = "empty", 403 = "skip" }"# + "\n" + extra)
    }

    static func gone(_ status: Int) -> UpstreamResponse {
        .json(Array(#"{"message": "gone"}"#.utf8), status: status, headers: [("ETag", #""error-etag""#)])
    }

    @Test("the decision: mapped statuses only, never 401, 2xx or 304")
    func decision() {
        let policy = StatusPolicy([404: .empty, 403: .skip])
        #expect(policy.decision(for: 404) == .empty && policy.decision(for: 403) == .skip)
        #expect(policy.decision(for: 410) == .fail && policy.decision(for: 500) == .fail)
        #expect(StatusPolicy([401: .skip, 200: .empty, 304: .skip]).decision(for: 401) == .fail)
        #expect(StatusPolicy([200: .empty]).decision(for: 200) == .fail)
        #expect(StatusPolicy().decision(for: 404) == .fail)
    }

    @Test("404 = \"empty\" with allow_empty deletes the stored rows, records the 404 and clears the validators")
    func emptyDeletes() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"{"data": \#(recordsJSON(1...3))}"#, etag: #""v1""#)
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), extra: "allow_empty = true"))
            _ = try await fixture.sync("users")
            upstream.set("/users", Self.gone(404))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.deleted == 3 && report.records == 0, "\(report)")
            #expect(report.httpStatus == 404 && report.skippedStatus == nil)
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(0))
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_tombstones") == .integer(3))
            let endpoint = try fixture.rows("SELECT last_status, etag, last_error FROM syncd_endpoints")
            #expect(endpoint.first?["last_status"] == .integer(404))
            #expect(endpoint.first?["etag"] == .null && endpoint.first?["last_error"] == .null)
            let run = try fixture.rows("SELECT outcome, http_status, deleted FROM syncd_runs ORDER BY id DESC LIMIT 1")
            #expect(run.first?["outcome"] == .text("changed") && run.first?["http_status"] == .integer(404))
            #expect(run.first?["deleted"] == .integer(3))
            // The next request is unconditional: the 404's ETag was not stored, and the first 200's was cleared.
            _ = try await fixture.sync("users")
            #expect(upstream.requests.last?.header("If-None-Match") == nil)
        }
    }

    @Test("without allow_empty an empty set is refused when rows are stored, and they stay")
    func emptyGuard() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"{"data": \#(recordsJSON(1...3))}"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            _ = try await fixture.sync("users")
            upstream.set("/users", Self.gone(410))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .refused && report.httpStatus == 410)
            #expect(
                report.error
                    == "users: HTTP 410 Gone is an empty set by on_status, but the response holds no records while 3 are "
                    + "stored; kept them (set allow_empty = true if an empty answer is legitimate)")
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(3))
        }
    }

    @Test("an empty set for an empty table, or an incremental endpoint, changes nothing and succeeds")
    func emptyNothingStored() async throws {
        try await withTestUpstream { upstream in
            upstream.set("/users", Self.gone(404))
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            let first = try await fixture.sync("users")
            #expect(!first.outcome.isFailure && first.records == 0 && first.httpStatus == 404, "\(first)")

            upstream.setJSON("/users", #"{"data": \#(recordsJSON(1...2))}"#)
            let incremental = try SyncFixture(toml: Self.toml(upstream.url("/users"), extra: #"mode = "incremental""#))
            _ = try await incremental.sync("users")
            upstream.set("/users", Self.gone(404))
            let report = try await incremental.sync("users")
            #expect(report.outcome == .unchanged && report.deleted == 0 && report.records == 2, "\(report)")
        }
    }

    @Test("403 = \"skip\" keeps the rows and the validators, and records a not_modified run with the 403")
    func skip() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"{"data": \#(recordsJSON(1...3))}"#, etag: #""v1""#)
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            _ = try await fixture.sync("users")
            let before = try fixture.rows("SELECT * FROM users ORDER BY id")
            upstream.set("/users", Self.gone(403))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .notModified && report.skippedStatus == 403 && report.records == 3)
            #expect(report.error == nil && report.version == 1)
            #expect(try fixture.rows("SELECT * FROM users ORDER BY id") == before)
            let run = try fixture.rows("SELECT outcome, http_status FROM syncd_runs ORDER BY id DESC LIMIT 1")
            #expect(run.first?["outcome"] == .text("not_modified") && run.first?["http_status"] == .integer(403))
            let endpoint = try fixture.rows("SELECT last_status, etag, consecutive_failures FROM syncd_endpoints")
            #expect(endpoint.first?["last_status"] == .integer(403) && endpoint.first?["etag"] == .text(#""v1""#))
            #expect(endpoint.first?["consecutive_failures"] == .integer(0))
            // The stored ETag is still sent: an unchanged upstream answers 304 again.
            upstream.setJSON("/users", #"{"data": \#(recordsJSON(1...3))}"#, etag: #""v1""#)
            #expect(try await fixture.sync("users").outcome == .notModified)
            #expect(upstream.requests.last?.header("If-None-Match") == #""v1""#)
        }
    }

    @Test("a status on_status does not map fails the run as before, and keeps the rows")
    func unmapped() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"{"data": \#(recordsJSON(1...3))}"#)
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), extra: "retries = 0"))
            _ = try await fixture.sync("users")
            upstream.set("/users", Self.gone(400))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(report.error == "users: HTTP 400 Bad Request from the upstream; kept the stored data")
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(3))
        }
    }

    @Test("a mapped status on a later page fails the run: the walk broke half-way")
    func laterPage() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                guard request.query["page"] == "2" else { return jsonAnswer(#"{"data": \#(recordsJSON(1...2))}"#) }
                return Self.gone(404)
            }
            let fixture = try SyncFixture(
                toml: Self.toml(
                    upstream.url("/users"),
                    extra: #"pagination = { type = "page", param = "page", size = 2 }"# + "\nallow_empty = true"))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed && report.httpStatus == 404)
            #expect(report.error == "users: page 2: HTTP 404 Not Found from the upstream; kept the stored data")
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_runs WHERE outcome = 'failed'") == .integer(1))
        }
    }

    @Test("a document endpoint's skip keeps the stored document")
    func documentSkip() async throws {
        try await withTestUpstream { upstream in
            let toml = #"[[endpoint]]\#nname = "config"\#non_status = { 503 = "skip" }\#nretries = 0\#n"#
            let fixture = try SyncFixture(toml: toml + "url = \"\(upstream.url("/config"))\"\n")
            upstream.setJSON("/config", #"{"a": 1}"#)
            _ = try await fixture.sync("config")
            upstream.set("/config", Self.gone(503))
            let report = try await fixture.sync("config")
            #expect(report.outcome == .notModified && report.skippedStatus == 503 && report.version == 1)
            #expect(try fixture.scalar("SELECT CAST(body AS TEXT) FROM syncd_documents") == .text(#"{"a": 1}"#))
        }
    }
}
