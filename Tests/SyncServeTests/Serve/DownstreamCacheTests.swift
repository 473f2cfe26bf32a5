import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// The read API behind an HTTP cache nobody here wrote: Varnish, which reads `Cache-Control: max-age` and `Age` as
/// RFC 9111 does (what is left is `max-age` − `Age`). `.ci/run` installs it.
@Suite("read API: a downstream HTTP cache reads the freshness headers")
struct DownstreamCacheTests {
    static let hasVarnish = FileManager.default.isExecutableFile(atPath: "/usr/sbin/varnishd")

    /// Runs `/bin/sh -c script` and returns what it printed; its output goes to a file, so nothing blocks on a pipe.
    static func shell(_ script: String, in directory: TemporaryDirectory) async throws -> String {
        let output = directory.file("shell.out")
        let process = try ChildProcess.spawn(
            "/bin/sh", ["-c", script], standardOutput: .file(output), standardError: .standardOutput)
        _ = await process.wait()
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    @Test(
        "Varnish serves a fresh answer from its cache though its Age is past what is left, and asks again for a stale one",
        .enabled(if: hasVarnish || ProcessInfo.processInfo.environment["CI"] != nil))
    func varnish() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let work = try TemporaryDirectory()
        try await ReadAPIHarness.with(fixture) { api in
            let backend = api.baseURL.replacingOccurrences(of: "http://", with: "")
            // Daemonised, varnishd returns once its child listens.
            let started = try await Self.shell(
                "varnishd -n \(work.file("v")) -a \(work.file("v.sock")) -b \(backend) -j none -P \(work.file("pid"))"
                    + " -s malloc,8m -p vsl_space=1m && echo started",
                in: work)
            try #require(started.hasSuffix("started\n"), "\(started)")
            /// The status of each of two requests, and whether Varnish answered it from its cache (`X-Varnish` holds
            /// two transaction ids on a hit, one on a miss).
            func twice(_ path: String) async throws -> [String] {
                let script = (1...2).map { _ in
                    "curl -sS -D - -o /dev/null --unix-socket \(work.file("v.sock")) http://\(backend)\(path)"
                        + " | tr -d '\\r' | grep -i -e '^HTTP/' -e '^x-varnish:'"
                }.joined(separator: "; ")
                return try await Self.shell(script, in: work).split(separator: "\n").map { line in
                    let fields = line.split(separator: " ")
                    if line.hasPrefix("HTTP/") { return fields.dropFirst().first.map(String.init) ?? line.description }
                    return fields.count == 3 ? "hit" : "miss"
                }
            }
            // 45 s after the poll, 15 s before the next: max-age=60 with Age: 45.
            fixture.clock.advance(by: 45)
            let fresh = try await twice("/v1/endpoints/users/records/1")
            // Overdue: stale, so every request reaches syncd.
            fixture.clock.advance(by: 30)
            let stale = try await twice("/v1/endpoints/users/records/2")
            _ = try await Self.shell("kill $(cat \(work.file("pid")))", in: work)
            #expect(fresh == ["200", "miss", "200", "hit"])
            #expect(stale == ["200", "miss", "200", "miss"])
        }
    }
}
