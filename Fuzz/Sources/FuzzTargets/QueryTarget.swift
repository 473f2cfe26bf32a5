internal import Foundation
internal import NIOCore
import SyncCore
import SyncIngest
internal import SyncSQLite
import SyncServe

/// The read API's query parser: any query string of a records request is parsed and checked against the endpoint,
/// capped at `max_rows`, then run on a small database as the read API runs it, and ends in records or a 400 naming a
/// parameter — never a trap, and never a database error (which the API would answer with a 503). A change-feed
/// request likewise, and the `next` link of a capped feed reads back to where it stopped. The fast path's reading of
/// request targets too (``routes(_:)``). A query taken is within the bounds (``bounded(_:_:)``), and each parameter
/// the OpenAPI document describes is taken exactly when its pattern matches it (``document(_:_:_:)``).
///
/// Input: the query string, as it follows `?` in the request's URI (still percent-encoded).
enum QueryTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        let fixture: QueryFixture
        switch QueryFixture.shared {
        case .success(let made): fixture = made
        case .failure(let error): throw FuzzFailure("the query target's database cannot be made: \(error)")
        }
        let reader = RecordReader(database: fixture.database, endpoint: fixture.endpoint)
        do {
            let parsed = try PostgRESTQuery(
                parsing: text, for: SyncCache.Endpoint(fixture.endpoint), maxRows: QueryFixture.maxRows)
            let parameter = parsed.query.filters.first?.column ?? "query"
            try bounded(parsed, text)
            do {
                // A tiny byte budget for some inputs, so that the answer's byte cap is taken too.
                let page = try reader.records(
                    parsed.query.base, countingAll: input.count % 2 == 0, maxBytes: input.count % 3 == 0 ? 64 : 8 << 20)
                try require(page.rows.count == page.raws.count, "\(page.rows.count) rows, \(page.raws.count) raws")
                try require(page.rows.count <= QueryFixture.maxRows, "\(page.rows.count) rows, max_rows 3")
            } catch let error as StoreError {
                try expectBadRequest(ReadAPIError(SyncError(error), parameter: parameter), text)
            } catch let failure as FuzzFailure {
                throw failure
            } catch {
                throw FuzzFailure("\(text.debugDescription) failed in the database: \(error)")
            }
        } catch let error as ReadAPIError {
            try expectBadRequest(error, text)
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("\(text.debugDescription) threw \(error)")
        }
        try changes(text, reader)
        try routes(text)
        try document(text, reader, fixture)
    }

    /// A query the parser takes is within the read API's bounds (README › The read API): 8,192 bytes, 64 filters,
    /// 32 order items, 256 values in a list, a select naming each column once, an offset of at most 10⁹.
    static func bounded(_ parsed: PostgRESTQuery, _ text: String) throws(FuzzFailure) {
        let select = parsed.select ?? []
        try require(text.utf8.count <= 8192, "a query of \(text.utf8.count) bytes was taken")
        try require(Set(select).count == select.count, "\(text.debugDescription) selects \(select)")
        try require(parsed.query.filters.count <= 64, "\(parsed.query.filters.count) filters were taken")
        try require(parsed.query.order.count <= 32, "\(parsed.query.order.count) order items were taken")
        try require(
            parsed.query.filters.allSatisfy { $0.values.count <= 256 }, "\(text.debugDescription): a list of over 256")
        try require(parsed.query.offset <= 1_000_000_000, "offset \(parsed.query.offset) was taken")
    }

    /// The read API's fast path reads a request target itself: the query after a hot route's path comes back as it
    /// was sent, and any target it takes names a non-empty endpoint and record key without a `/`; anything else is
    /// left to the router (nil), never a trap.
    static func routes(_ text: String) throws(FuzzFailure) {
        let isPlain = text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "#") }
        for (path, label) in [
            ("/v1/endpoints/users/records", "/v1/endpoints/{name}/records"), ("/rest/users", "/rest/{name}"),
        ] {
            let route = ReadFastPath.Route(path + "?" + text)
            let expected = isPlain ? ReadFastPath.Route(name: "users", kind: .records(query: text, label: label)) : nil
            try require(route == expected, "\(path)?\(text.debugDescription) read as \(String(describing: route))")
        }
        for target in [text, "/v1/endpoints/" + text, "/v1/endpoints/users/records/" + text] {
            guard let route = ReadFastPath.Route(target) else { continue }
            try require(target.hasPrefix("/"), "\(target.debugDescription) taken without a leading /")
            try require(!route.name.isEmpty && !route.name.contains("/"), "\(target.debugDescription): \(route)")
            if case .record(let id) = route.kind {
                try require(!id.isEmpty, "\(target.debugDescription) read with an empty key")
            }
        }
    }

    /// The change feed's `since`, `after`, `limit` and `wait`, the `next` link of a capped answer read back, and the
    /// position of its last change (an event's `id`).
    static func changes(_ text: String, _ reader: RecordReader) throws(FuzzFailure) {
        do {
            let feed = try ChangeFeedQuery(parsing: text, maxRows: QueryFixture.maxRows)
            if let wait = feed.wait {
                try require(wait >= .zero && wait <= ChangeFeedQuery.longestWait, "\(text.debugDescription): \(wait)")
            }
            let changes = try reader.changes(since: feed.since, after: feed.after?.base, limit: feed.limit)
            let count = changes.changed.count + changes.deleted.count
            try require(count <= feed.limit, "\(count) changes, limit \(feed.limit)")
            // The event stream's id: the last change's position, which a capped part's next is too.
            try require(
                (count == 0) == (changes.last == nil), "\(count) changes, last \(String(describing: changes.last))")
            if let next = changes.next {
                try require(next == changes.last, "next \(next), last \(String(describing: changes.last))")
            }
            guard let next = changes.next.map(SyncCache.FeedPosition.init) else { return }
            let link = feed.link(endpoint: "users", after: next)
            let again = try ChangeFeedQuery(
                parsing: String(link.drop { $0 != "?" }.dropFirst()), maxRows: QueryFixture.maxRows)
            try require(
                again.since == feed.since && again.after == next, "the next link \(link) reads back as \(again)")
        } catch let error as ReadAPIError {
            try expectBadRequest(error, text)
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("changes with \(text.debugDescription) failed in the database: \(error)")
        }
    }

    static func expectBadRequest(_ error: ReadAPIError, _ text: String) throws(FuzzFailure) {
        try require(error.status == 400, "\(text.debugDescription) gave a \(error.status): \(error)")
    }
}

/// A database holding one synced endpoint with a column of each type, made once per process.
final class QueryFixture {
    /// Below the number of ``records`` (five), so that lists and the change feed are capped.
    static let maxRows = 3
    static let configuration = """
        [[endpoint]]
        name = "users"
        url = "https://api.example.com/users"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        score = { path = "score", type = "real" }
        active = { path = "active", type = "boolean" }
        seen = { path = "seen", type = "timestamp" }
        tags = { path = "tags", type = "json" }
        odd = "odd"
        """
    static let records = """
        [{"id": 1, "name": "Ann", "score": 1.5, "active": true, "seen": "2024-05-01T12:00:00Z", "tags": ["a"]},
         {"id": 2, "name": "b_%*?[]\\\\", "score": -0.0, "active": false, "seen": 1714564800, "odd": "x"},
         {"id": 3, "name": null, "score": 1e300, "tags": {"k": [1, null]}},
         {"id": -9223372036854775808, "name": "Zoë 😀", "score": "12", "active": "true"},
         {"id": 9223372036854775807, "name": "", "seen": "2024-05-01"}]
        """

    /// A folder of its own per process, removed when the process exits.
    static let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("syncd-fuzz-query-\(getpid())")

    /// libFuzzer runs a target on one thread, and the corpus test replays one target's files one after another:
    /// the connection is never used by two threads at once.
    nonisolated(unsafe) static let shared = Result { try QueryFixture() }

    let database: Database
    let endpoint: EndpointConfiguration

    private init() throws {
        let directory = Self.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: QueryFixture.directory) }  // best effort: a temp folder
        let parsed = try SyncConfiguration.parse(Self.configuration, sourcePath: directory + "/syncd.toml")
        guard let endpoint = parsed.plans.first else { throw FuzzFailure("the fixture has no endpoint") }
        self.endpoint = endpoint
        database = try Database(path: directory + "/cache.db")
        _ = try Migrator.embedded.migrate(database)
        let spool = BodySpool(directory: directory)
        try spool.append(ByteBuffer(string: Self.records))
        _ = try SyncApply(endpoint: endpoint).applyCollection(
            DecodedBody(spool: spool),
            facts: RunFacts(startedAt: 1_700_000_000, finishedAt: 1_700_000_001, httpStatus: 200),
            database: database)
    }
}
