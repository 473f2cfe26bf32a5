import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncServe

/// The change feed live, read by a client nobody here wrote: curl, which prints a Server-Sent Events stream as it
/// arrives (`-N`), and whose long poll is an ordinary request.
@Suite("read API: the change feed as an event stream and a long poll")
struct ChangeStreamTests {
    /// One event of a stream as a client reads it (the `data:` lines joined with `\n`).
    struct Event: Equatable {
        var id: String
        var name: String
        var data: String
    }

    /// `curl -N` reading a stream into a file, read back as events.
    final class Stream {
        let process: ChildProcess
        let output: String

        init(_ url: String, lastEventID: String? = nil, in directory: TemporaryDirectory, name: String) throws {
            output = directory.file("\(name).out")
            var arguments = ["-sS", "-N", "-H", "Accept: text/event-stream"]
            if let lastEventID { arguments += ["-H", "Last-Event-ID: \(lastEventID)"] }
            process = try ChildProcess.spawn(
                "/usr/bin/curl", arguments + [url], standardOutput: .file(output), standardError: .standardOutput)
        }

        var text: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

        /// The events received so far; comments and the `retry:` field are left out.
        var events: [Event] {
            text.components(separatedBy: "\n\n").compactMap { block in
                var event = Event(id: "", name: "", data: "")
                var data: [String] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                }
                event.data = data.joined(separator: "\n")
                return data.isEmpty ? nil : event
            }
        }

        /// Waits until `condition` holds of the stream, or 30 s pass (then the test's expectations say what was
        /// missing). The stream is read by another process: a deadline, not a guess at its speed, ends the wait.
        func until(_ condition: (Stream) -> Bool) async {
            await ChangeStreamTests.until { condition(self) }
        }

        func stop() async {
            process.send(SIGTERM)
            _ = await process.wait()
        }
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Waits until `condition` holds, or 30 s pass.
    static func until(_ condition: () -> Bool) async {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    }

    @Test(
        "Accept asks for the stream when it names text/event-stream, not refused with q=0",
        arguments: [
            ("text/event-stream", true), ("TEXT/Event-Stream ; charset=utf-8", true), (nil, false), ("*/*", false),
            ("application/json, text/event-stream;q=0.5", true), ("text/event-stream;q=0", false),
            ("text/event-streams", false), ("", false),
        ] as [(String?, Bool)])
    func negotiation(accept: String?, stream: Bool) {
        #expect(AcceptHeader.wantsEventStream(accept) == stream)
    }

    @Test("streams at one place, knowing one generation, share one read of their part; another generation reads again")
    func sharedReads() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let endpoint = try api.model.endpoint("users")
            let reads = Counter()
            let gate = AsyncStream<Void>.makeStream()
            @Sendable func part(_ generation: Int64) async throws(ReadAPIError) -> SyncCache.ChangeList {
                let key = SharedParts.Key(endpoint: "users", since: 0, after: nil, limit: 10, generation: generation)
                return try await api.model.sharedParts.part(key) { () async throws(ReadAPIError) in
                    reads.add()
                    // Held until every waiter has asked: they all find this read in flight.
                    for await _ in gate.stream { break }
                    return try await api.model.read { reader in
                        try reader.changes(of: endpoint, since: 0, limit: 10, maxBytes: .max)
                    }
                }
            }
            let key = SharedParts.Key(endpoint: "users", since: 0, after: nil, limit: 10, generation: 7)
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await part(7).changed.count } }
                while api.model.sharedParts.callers(key) < 20 { await Task.yield() }
                gate.continuation.yield()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 4, count: 20))
            #expect(reads.value == 1, "one read for twenty streams")
            gate.continuation.finish()
            _ = try await part(8)
            #expect(reads.value == 2, "a later generation is a new read")
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test("each commit is an event whose id is its position, its data the change feed's; Last-Event-ID resumes exactly")
    func stream() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let work = try TemporaryDirectory()
        var ids: [String] = []
        try await ReadAPIHarness.with(fixture) { api in
            let url = api.baseURL + "/v1/endpoints/users/changes?since=0"
            let stream = try Stream(url, in: work, name: "first")
            await stream.until { $0.events.count == 1 }
            let first = try #require(stream.events.first)
            #expect(first.name == "changes")
            #expect(first.id == "1.r.4", "the position of the last change: version 1, rowid 4")
            let feed = try await api.get("/v1/endpoints/users/changes?since=0")
            #expect(first.data == feed.body)

            // A commit by another process (the fixture's writer): Bob renamed, Dee deleted, Eve added.
            try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3, 5], renamed: [2: "Rob"], generation: 1)
            _ = try await fixture.sync("users")
            await stream.until { $0.events.count == 2 }
            let second = try #require(stream.events.dropFirst().first)
            let changes = try Self.json(second.data)
            #expect(changes["version"] as? Int == 2)
            #expect((changes["changed"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Rob", "Eve"])
            #expect(changes["deleted"] as? [Int] == [4])
            let sinceOne = try await api.get("/v1/endpoints/users/changes?since=1")
            #expect(second.data == sinceOne.body, "the same changes as the change feed, in the same order")
            ids = stream.events.map(\.id)
            await stream.stop()

            // Reconnecting after the first event: the second again, nothing before it.
            let resumed = try Stream(url, lastEventID: first.id, in: work, name: "resumed")
            await resumed.until { !$0.events.isEmpty }
            #expect(resumed.events == [second])
            await resumed.stop()
        }
        // Across a restart of the read API: the positions are the database's.
        try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3, 5, 6], renamed: [2: "Rob"], generation: 2)
        _ = try await fixture.sync("users")
        try await ReadAPIHarness.with(fixture) { api in
            let url = api.baseURL + "/v1/endpoints/users/changes?since=0"
            let resumed = try Stream(url, lastEventID: ids.last, in: work, name: "restarted")
            await resumed.until { !$0.events.isEmpty }
            let events = resumed.events
            #expect(events.count == 1)
            let changes = try Self.json(try #require(events.first).data)
            #expect((changes["changed"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [6])
            #expect(changes["deleted"] as? [Int] == [])
            await resumed.stop()
        }
    }

    @Test("an idle stream sends a heartbeat comment; a bad Last-Event-ID or wait is a 400 naming it")
    func heartbeatAndRefusals() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let work = try TemporaryDirectory()
        try await ReadAPIHarness.with(fixture, heartbeat: .milliseconds(50)) { api in
            let stream = try Stream(
                api.baseURL + "/v1/endpoints/users/changes?since=1", in: work, name: "idle")
            await stream.until { $0.text.contains(": heartbeat\n\n") }
            #expect(stream.text.hasPrefix("retry: 1000\n\n"))
            #expect(stream.text.contains(": heartbeat\n\n"))
            #expect(stream.events.isEmpty, "nothing changed after version 1")
            await stream.stop()

            let badID = try await api.get(
                "/v1/endpoints/users/changes", headers: [("Accept", "text/event-stream"), ("Last-Event-ID", "x")])
            #expect(badID.status == 400)
            #expect(badID.body.contains(#""parameter":"Last-Event-ID""#))
            let badWait = try await api.get("/v1/endpoints/users/changes?wait=2m")
            #expect(badWait.status == 400)
            #expect(badWait.body.contains(#""parameter":"wait""#))
            let document = try await api.get("/v1/endpoints/flags/changes", headers: [("Accept", "text/event-stream")])
            #expect(document.status == 404, "a document has no change feed, live or not")
        }
    }

    @Test("a stream ends, cleanly, when the read API stops: the server's graceful shutdown does not wait for it")
    func endsAtShutdown() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let work = try TemporaryDirectory()
        var open: Stream?
        try await ReadAPIHarness.with(fixture) { api in
            let stream = try Stream(api.baseURL + "/v1/endpoints/users/changes?since=0", in: work, name: "open")
            await stream.until { $0.events.count == 1 }
            open = stream
        }
        let stream = try #require(open)
        #expect(await stream.process.wait() == 0, "the stream ended with the chunked body's end: \(stream.text)")
        #expect(stream.events.count == 1)
    }

    @Test("past max_streams a stream or a long poll is a 503 with Retry-After; a closed stream gives its place back")
    func maxStreams() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let work = try TemporaryDirectory()
        try await ReadAPIHarness.with(fixture, maxStreams: 1, heartbeat: .milliseconds(50)) { api in
            let url = api.baseURL + "/v1/endpoints/users/changes?since=0"
            let holder = try Stream(url, in: work, name: "holder")
            await holder.until { $0.events.count == 1 }
            let refused = try await api.get("/v1/endpoints/users/changes", headers: [("Accept", "text/event-stream")])
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            let poll = try await api.get("/v1/endpoints/users/changes?since=1&wait=5s")
            #expect(poll.status == 503)
            // A request that does not wait is not a stream.
            #expect(try await api.get("/v1/endpoints/users/changes?since=1").status == 200)
            await holder.stop()
            // The stream notices its client is gone at its next write (a heartbeat), and its place is free.
            await Self.until { api.model.streams.count == 0 }
            #expect(api.model.streams.count == 0)
            let next = try Stream(url, in: work, name: "next")
            await next.until { $0.events.count == 1 }
            #expect(next.events.count == 1)
            await next.stop()
        }
    }

    @Test("a long poll answers once a change after since exists; with none, when its wait is over, as the feed does")
    func longPoll() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let work = try TemporaryDirectory()
        try await ReadAPIHarness.with(fixture) { api in
            let empty = try await api.get("/v1/endpoints/users/changes?since=1&wait=200ms")
            #expect(empty.status == 200)
            #expect(empty.body == #"{"version":1,"changed":[],"deleted":[]}"#)
            let answered = try await api.get("/v1/endpoints/users/changes?since=0&wait=30s")
            #expect(answered.status == 200, "a change after since exists: at once")
            #expect(answered.body.contains("Dee"))

            let output = work.file("poll.out")
            let poll = try ChildProcess.spawn(
                "/usr/bin/curl", ["-sS", api.baseURL + "/v1/endpoints/users/changes?since=1&wait=30s"],
                standardOutput: .file(output), standardError: .standardOutput)
            await Self.until { api.model.streams.count == 1 }
            #expect(api.model.streams.count == 1, "the poll waits")
            try ReadAPIFixture.write(files, "users.json", users: [1, 2, 3], generation: 1)
            _ = try await fixture.sync("users")
            #expect(await poll.wait() == 0)
            let body = try String(contentsOfFile: output, encoding: .utf8)
            #expect(body == #"{"version":2,"changed":[],"deleted":[4]}"#)
        }
    }
}
