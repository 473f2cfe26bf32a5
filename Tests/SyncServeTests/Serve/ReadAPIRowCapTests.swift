import Foundation
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncServe

/// Lists and the change feed are capped at `[server] max_rows` per answer, and say where they stopped.
@Suite("read API: the row cap, Content-Range and the change feed's next links")
struct ReadAPIRowCapTests {
    /// Seven users, synced from a file, served with `max_rows = 3`.
    static func fixture() async throws -> (SyncFixture, TemporaryDirectory) {
        let files = try TemporaryDirectory()
        try ReadAPIFixture.write(files, "users.json", users: Array(1...7))
        let fixture = try SyncFixture(
            toml: """
                [server]
                max_rows = 3

                [[endpoint]]
                name = "users"
                url = "\(URL(fileURLWithPath: files.file("users.json")).absoluteString)"
                records = "$"
                primary_key = ["id"]

                [endpoint.columns]
                id = { path = "id", type = "integer" }
                name = "name"
                """)
        _ = try await fixture.sync("users")
        return (fixture, files)
    }

    static func ids(_ body: String) throws -> [Int] {
        let records = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]])
        return records.compactMap { $0["id"] as? Int }
    }

    @Test("a list holds at most max_rows records, a larger limit is clamped, and Content-Range says which")
    func recordsCapped() async throws {
        let (fixture, files) = try await Self.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let all = try await api.get("/v1/endpoints/users/records")
            #expect(try Self.ids(all.body) == [1, 2, 3])
            #expect(all.header("Content-Range") == "0-2/*")
            let counted = try await api.get("/v1/endpoints/users/records", headers: [("Prefer", "count=exact")])
            #expect(counted.header("Content-Range") == "0-2/7")
            let clamped = try await api.get("/rest/users?limit=5&offset=3")
            #expect(try Self.ids(clamped.body) == [4, 5, 6])
            #expect(clamped.header("Content-Range") == "3-5/*")
            let last = try await api.get("/rest/users?offset=6&limit=100", headers: [("Prefer", "count=exact")])
            #expect(try Self.ids(last.body) == [7])
            #expect(last.header("Content-Range") == "6-6/7")
            let smaller = try await api.get("/v1/endpoints/users/records?limit=2&order=id.desc")
            #expect(try Self.ids(smaller.body) == [7, 6])
            #expect(smaller.header("Content-Range") == "0-1/*")
        }
    }

    /// One answer of the change feed.
    struct FeedPart {
        var version: Int
        var changed: [Int: String]
        var changedOrder: [Int]
        var deleted: [Int]
        var next: String?

        init(_ body: String) throws {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            version = try #require(object["version"] as? Int)
            let records = try #require(object["changed"] as? [[String: Any]])
            changedOrder = records.compactMap { $0["id"] as? Int }
            changed = Dictionary(
                records.compactMap { record in (record["id"] as? Int).map { ($0, record["name"] as? String ?? "") } },
                uniquingKeysWith: { _, last in last })
            deleted = try #require(object["deleted"] as? [Int])
            next = object["next"] as? String
        }
    }

    @Test("a capped change feed gives the highest whole version and a next link; following it misses nothing")
    func changeFeedPages() async throws {
        let (fixture, files) = try await Self.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            // All seven rows share version 1: more than max_rows in one version.
            let first = try FeedPart(try await api.get("/v1/endpoints/users/changes?since=0").body)
            #expect(first.changedOrder == [1, 2, 3])
            #expect(first.version == 0)
            #expect(first.next == "/v1/endpoints/users/changes?since=0&after=1.r.3")

            // A sync between two parts: Bob renamed, user 5 deleted, user 8 added (version 2).
            try ReadAPIFixture.write(
                files, "users.json", users: [1, 2, 3, 4, 6, 7, 8], renamed: [2: "Rob"], generation: 1)
            _ = try await fixture.sync("users")

            var mirror = first.changed
            var next = first.next
            var parts: [FeedPart] = []
            while let link = next {
                let part = try FeedPart(try await api.get(link).body)
                mirror.merge(part.changed) { _, new in new }
                for key in part.deleted { mirror[key] = nil }
                parts.append(part)
                next = part.next
            }
            #expect(parts.map(\.changedOrder) == [[4, 6, 7], [2, 8]])
            #expect(parts.map(\.deleted) == [[], [5]])
            #expect(parts.map(\.version) == [1, 2])
            #expect(parts.first?.next == "/v1/endpoints/users/changes?since=0&after=1.r.7")

            var stored: [Int] = []
            for offset in [0, 3, 6] {
                stored += try Self.ids(try await api.get("/v1/endpoints/users/records?offset=\(offset)").body)
            }
            #expect(stored == [1, 2, 3, 4, 6, 7, 8])
            #expect(mirror.keys.sorted() == stored)
            #expect(mirror[2] == "Rob")

            // The last part's version is where the next walk starts: nothing new since.
            let caughtUp = try FeedPart(try await api.get("/v1/endpoints/users/changes?since=2").body)
            #expect(caughtUp.changedOrder.isEmpty && caughtUp.deleted.isEmpty && caughtUp.next == nil)
        }
    }

    @Test("limit on the change feed is clamped to max_rows and repeated in next; a bad after or limit is a 400")
    func changeFeedParameters() async throws {
        let (fixture, files) = try await Self.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let two = try FeedPart(try await api.get("/v1/endpoints/users/changes?since=0&limit=2").body)
            #expect(two.changedOrder == [1, 2])
            #expect(two.next == "/v1/endpoints/users/changes?since=0&after=1.r.2&limit=2")
            let clamped = try FeedPart(try await api.get("/v1/endpoints/users/changes?since=0&limit=50").body)
            #expect(clamped.changedOrder == [1, 2, 3])
            for (query, parameter) in [
                ("since=0&after=1.x.2", "after"), ("since=0&after=banana", "after"), ("since=0&after=1.r.-2", "after"),
                ("since=0&limit=0", "limit"), ("since=0&limit=-1", "limit"),
            ] {
                let answer = try await api.get("/v1/endpoints/users/changes?\(query)")
                #expect(answer.status == 400, "\(query)")
                #expect(answer.body.contains("\"parameter\":\"\(parameter)\""), "\(query)")
            }
        }
    }
}

/// What an answer holds is bounded by what is written, not only by the stored bytes the reader budgets.
@Suite("read API: answers bounded by their written bytes")
struct ReadAPIAnswerBytesTests {
    @Test("a selection stops once the objects written reach the cap (at least one), and says how many it holds")
    func selectionCappedAsWritten() throws {
        let fixture = try SyncFixture(
            toml: """
                [[endpoint]]
                name = "users"
                url = "file:///dev/null"
                records = "$"
                primary_key = ["id"]

                [endpoint.columns]
                id = { path = "id", type = "integer" }
                a_column_whose_name_is_longer_than_the_value_it_holds = "n"
                """)
        let endpoint = try #require(fixture.configuration.plans.first)
        let rows: [[ColumnValue]] = (100...199).map { [.integer(Int64($0)), .text("x")] }
        let page = SyncCache.RecordList(
            base: RecordPage(
                columns: ["id", "a_column_whose_name_is_longer_than_the_value_it_holds"], rows: rows,
                raws: rows.indices.map { _ in #"{"id":1,"n":"x"}"# }, etag: "\"e\"", version: 1, changedAt: nil,
                total: nil),
            columns: endpoint.columns)
        let select = ["id", "a_column_whose_name_is_longer_than_the_value_it_holds"]
        let whole = ReadModel.recordsBody(
            page, select: select, endpoint: SyncCache.Endpoint(endpoint), maxBytes: 1 << 20)
        #expect(whole.count == 100)
        let objectBytes = (whole.body.readableBytes - 2) / 100
        let capped = ReadModel.recordsBody(
            page, select: select, endpoint: SyncCache.Endpoint(endpoint), maxBytes: 10 * objectBytes)
        #expect(capped.count == 10)
        #expect(capped.body.readableBytes <= 10 * objectBytes + objectBytes)
        let one = ReadModel.recordsBody(page, select: select, endpoint: SyncCache.Endpoint(endpoint), maxBytes: 1)
        #expect(one.count == 1)
        // The records themselves, as stored, are not cut again: the reader stopped at the budget.
        #expect(
            ReadModel.recordsBody(page, select: nil, endpoint: SyncCache.Endpoint(endpoint), maxBytes: 1).count == 100)
    }
}
