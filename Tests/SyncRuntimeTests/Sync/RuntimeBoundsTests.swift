import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// Numbers that reach the sync from an endpoint built in code, an upstream's headers or the file system never trap:
/// each is clamped or fails the run with one sentence, and the stored data stays. (The configuration file refuses
/// most of them first: ``ConfigurationBoundsTests``.)
@Suite("sync: outside numbers never trap")
struct RuntimeBoundsTests {
    static func toml(_ url: String, extra: String = "") -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "$"
        primary_key = ["id"]
        retries = 0
        \(extra)

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }

    static func document(_ url: String) -> String {
        """
        [[endpoint]]
        name = "flags"
        url = "\(url)"
        """
    }

    @Test("a timeout past 64-bit nanoseconds (106752d) saturates (NIO's TimeAmount(Duration)) instead of trapping")
    func hugeTimeout() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1}]"#)
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            fixture.configuration.plans[0].timeout = .seconds(106_752 * 86_400)
            #expect(try await fixture.sync("users").outcome == .changed)
        }
    }

    @Test("a Retry-After within a retry_max_delay near the 64-bit millisecond limit waits a clamped time")
    func hugeRetryAfter() async throws {
        try await withTestUpstream { upstream in
            let answers = Mutex([429, 200])
            upstream.route("/users") { _ in
                let status = answers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
                return status == 200
                    ? jsonAnswer(#"[{"id": 1}]"#)
                    : jsonAnswer("{}", status: 429, headers: [("Retry-After", "9223372036854776")])
            }
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users")))
            fixture.configuration.plans[0].retries = 1
            fixture.configuration.plans[0].retryMaxDelay = .milliseconds(Int64.max)
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed)
            #expect(fixture.sleeps.durations == [.seconds(1_000_000_000)])
        }
    }

    @Test("a Content-Length above 4 GiB with a max_body above it fails the run instead of trapping")
    func hugeContentLength() async throws {
        try await withTestUpstream { upstream in
            upstream.set(
                "/flags.json",
                UpstreamResponse(
                    status: 200, headers: [("Content-Type", "application/json"), ("Content-Length", "5368709120")],
                    body: Array("{}".utf8), delivery: .truncated(afterBytes: 0)))
            var fixture = try SyncFixture(toml: Self.document(upstream.url("/flags.json")))
            fixture.configuration.plans[0].maxBody = 5 << 30
            let report = try await fixture.sync("flags")
            #expect(report.outcome == .failed)
            #expect(report.error == "flags: the body is larger than max_body (2 GiB); kept the stored data")
        }
    }

    @Test("a file above 4 GiB with a max_body above it fails the run instead of trapping")
    func hugeFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("big.json")
        // Sparse: five GiB of size, no disk used.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 5 << 30) == 0)
        var fixture = try SyncFixture(toml: Self.document("file://" + path))
        fixture.configuration.plans[0].maxBody = 5 << 30
        let report = try await fixture.sync("flags")
        #expect(report.outcome == .failed)
        #expect(report.error == "flags: the body is larger than max_body (2 GiB); kept the stored data")
    }

    @Test("a file:// URL naming a FIFO fails the run at once instead of hanging it")
    func fifo() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("users.json")
        #expect(mkfifo(path, 0o600) == 0)
        let fixture = try SyncFixture(toml: Self.toml("file://" + path))
        let report = try await fixture.sync("users")
        #expect(report.outcome == .failed)
        #expect(
            report.error
                == "users: \(path) is not a regular file (a FIFO, device or directory is never read); "
                + "kept the stored data")
    }

    @Test("a page number past Int.max fails the run with one sentence")
    func pageNumberOverflow() {
        let pagination = PaginationConfiguration(kind: .page(param: "page", start: .max, sizeParam: nil, size: nil))
        var walker = PageWalker(pagination: pagination, url: "https://api.example/users")
        #expect(walker.firstURL == "https://api.example/users?page=9223372036854775807")
        #expect(
            walker.next(after: PageWalker.Page(url: walker.firstURL, records: 2))
                == .failure("page 1: the next page number is too large"))
        let offsets = PaginationConfiguration(kind: .offset(param: "o", limitParam: nil, limit: .max))
        var offsetWalker = PageWalker(pagination: offsets, url: "https://api.example/users")
        _ = offsetWalker.next(after: PageWalker.Page(url: offsetWalker.firstURL, records: .max))
        #expect(
            offsetWalker.next(after: PageWalker.Page(url: "https://api.example/users?o=x", records: .max))
                == .failure("page 2: the next offset is too large"))
    }

    @Test("the pages of one run are capped on disk together; past the cap the run fails and keeps the data")
    func spoolCap() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "") ?? 1
                return jsonAnswer(#"{"data": \#(recordsJSON(page <= 3 ? [page] : []))}"#)
            }
            let fixture = try SyncFixture(
                toml: PaginationTests.toml(
                    upstream.url("/users"), pagination: #"{ type = "page", param = "page" }"#))
            var engine = fixture.engine
            #expect(await engine.sync(try fixture.endpoint("users")).records == 3)
            engine.spoolLimit = 100
            let report = await engine.sync(try fixture.endpoint("users"))
            #expect(report.outcome == .failed)
            #expect(
                report.error
                    == "users: page 3: the pages of the run are larger than 100 B together; kept the stored data")
            #expect(try PaginationTests.storedIDs(fixture) == [1, 2, 3])
        }
    }
}
