import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// The read API behind HTTP caches nobody here wrote: Varnish, which reads `Cache-Control: max-age` and `Age` as
/// RFC 9111 does (what is left is `max-age` − `Age`) and `stale-while-revalidate` as its grace, and nginx's proxy
/// cache, which reads `stale-if-error`. `.ci/run` installs both.
@Suite("read API: a downstream HTTP cache reads the freshness headers")
struct DownstreamCacheTests {
    static let hasVarnish = FileManager.default.isExecutableFile(atPath: "/usr/sbin/varnishd")
    static let hasNginx = FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
    static let inCI = ProcessInfo.processInfo.environment["CI"] != nil

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
        .enabled(if: hasVarnish || inCI))
    func varnish() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let work = try TemporaryDirectory()
        try await ReadAPIHarness.with(fixture) { api in
            let backend = api.baseURL.replacingOccurrences(of: "http://", with: "")
            _ = try await Self.varnish(backend, in: work)
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

    /// Starts varnishd in front of `backend` (with no grace but what the answers say) and returns its socket;
    /// daemonised, varnishd returns once its child listens.
    static func varnish(_ backend: String, in work: TemporaryDirectory) async throws -> String {
        let started = try await shell(
            "varnishd -n \(work.file("v")) -a \(work.file("v.sock")) -b \(backend) -j none -P \(work.file("pid"))"
                + " -s malloc,8m -p vsl_space=1m -p default_grace=0 && echo started",
            in: work)
        try #require(started.hasSuffix("started\n"), "\(started)")
        return work.file("v.sock")
    }

    @Test(
        "Varnish serves its copy past max-age for stale-while-revalidate's seconds while it asks syncd again",
        .enabled(if: hasVarnish || inCI))
    func staleWhileRevalidate() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let work = try TemporaryDirectory()
        try await ReadAPIHarness.with(fixture) { api in
            let backend = api.baseURL.replacingOccurrences(of: "http://", with: "")
            let socket = try await Self.varnish(backend, in: work)
            // 59 s after the poll: max-age=60 with Age: 59, one second left, then the timeout's 10 s of grace.
            fixture.clock.advance(by: 59)
            let curl =
                "curl -sS -D - -o /dev/null --unix-socket \(socket) http://\(backend)/v1/endpoints/users/records/1"
            // The first request fills Varnish's copy; then ask until Varnish's copy is past max-age (its Age, from
            // its own clock, 60 or more) or Varnish asked syncd instead (one transaction id: syncd's Age stays 59, as
            // its clock does not move). A deadline, not a sleep, ends the wait.
            let outcome = try await Self.shell(
                """
                \(curl) | tr -d '\\r' | grep -i '^cache-control:'
                end=$(($(date +%s) + 20))
                while [ "$(date +%s)" -lt "$end" ]; do
                    out=$(\(curl) | tr -d '\\r')
                    ids=$(printf '%s\\n' "$out" | grep -i '^x-varnish:' | wc -w)
                    age=$(printf '%s\\n' "$out" | grep -i '^age:' | cut -d' ' -f2)
                    if [ "$ids" -eq 2 ]; then echo "asked syncd, age $age"; exit; fi
                    if [ "$age" -ge 60 ]; then echo "served stale"; exit; fi
                    sleep 0.1
                done
                echo "still fresh at the deadline"
                """, in: work)
            _ = try await Self.shell("kill $(cat \(work.file("pid")))", in: work)
            #expect(
                outcome
                    == "Cache-Control: max-age=60, stale-while-revalidate=10, stale-if-error=1920\nserved stale\n")
        }
    }

    @Test(
        "nginx's proxy cache serves its expired copy while syncd is down, for stale-if-error's seconds",
        .enabled(if: hasNginx || inCI))
    func staleIfError() async throws {
        // Polled every second: max-age=1, so nginx's copy expires within a second; stale-if-error=32 (32 intervals).
        let (fixture, files) = try await ReadAPIFixture.fixture(usersInterval: "1s")
        defer { _ = files }
        let work = try TemporaryDirectory()
        let socket = work.file("n.sock")
        let curl = "curl -sS -D - --unix-socket \(socket) http://nginx/v1/endpoints/users/records?select=id"
        var first = ""
        try await ReadAPIHarness.with(fixture) { api in
            // One process, no workers that would drop to nobody; the cache and the socket in the test's folder.
            try """
            daemon on; master_process off; pid \(work.file("nginx.pid")); error_log \(work.file("error.log"));
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(work.file("tmp")); proxy_temp_path \(work.file("tmp"));
                fastcgi_temp_path \(work.file("tmp")); uwsgi_temp_path \(work.file("tmp")); scgi_temp_path \(work.file("tmp"));
                proxy_cache_path \(work.file("cache")) keys_zone=syncd:1m;
                server {
                    listen unix:\(socket);
                    location / {
                        proxy_pass \(api.baseURL);
                        proxy_cache syncd;
                        add_header X-Cache-Status $upstream_cache_status always;
                    }
                }
            }
            """.write(toFile: work.file("nginx.conf"), atomically: true, encoding: .utf8)
            let started = try await Self.shell(
                "mkdir -p \(work.file("tmp")) && nginx -c \(work.file("nginx.conf")) && echo started", in: work)
            try #require(started.hasSuffix("started\n"), "\(started)")
            first = try await Self.shell("\(curl) | tr -d '\\r' | grep -i -e '^HTTP/' -e '^x-cache-status:'", in: work)
        }
        // syncd's read API is gone: ask until nginx's copy has expired (its own clock) and it had to reach syncd.
        let outcome = try await Self.shell(
            """
            end=$(($(date +%s) + 20))
            while [ "$(date +%s)" -lt "$end" ]; do
                out=$(\(curl) | tr -d '\\r')
                status=$(printf '%s\\n' "$out" | grep -i '^x-cache-status:' | cut -d' ' -f2)
                if [ "$status" != "HIT" ]; then
                    printf '%s\\n' "$out" | grep -e '^HTTP/' -e '^\\['; echo "$status"; exit
                fi
                sleep 0.1
            done
            echo "still a hit at the deadline"
            """, in: work)
        _ = try await Self.shell("kill $(cat \(work.file("nginx.pid")))", in: work)
        #expect(first == "HTTP/1.1 200 OK\nX-Cache-Status: MISS\n")
        #expect(outcome == "HTTP/1.1 200 OK\n[{\"id\":1},{\"id\":2},{\"id\":3},{\"id\":4}]\nSTALE\n")
    }
}
