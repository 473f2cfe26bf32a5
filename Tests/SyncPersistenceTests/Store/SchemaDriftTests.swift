import Foundation
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest

/// The schema-drift journal, through the storage protocols, on every store: what a run notes, what is new to it, and
/// what the journal keeps.
@Suite("schema drift: the journal of every store")
struct SchemaDriftTests {
    typealias Kind = StorageConformanceTests.Kind

    let directory: TemporaryDirectory
    let open = StorageConformanceTests.OpenStores()
    let users: SyncRun

    init() throws {
        directory = try TemporaryDirectory()
        let configuration = try SyncConfiguration.parse(
            StorageConformanceTests.toml, sourcePath: directory.file("x.toml"))
        users = SyncRun(endpoint: try #require(configuration.plan(named: "users")))
    }

    func apply(_ json: String, to storage: any SyncStorage, at time: Double) async throws -> SyncSummary {
        let spool = BodySpool(directory: storage.spoolDirectory)
        try spool.append(ByteBuffer(string: json))
        return try await storage.applyCollection(
            DecodedBody(spool: spool), run: users,
            facts: { RunFacts(startedAt: time, finishedAt: time, httpStatus: 200, bytes: json.utf8.count) })
    }

    @Test("new fields, a type change and a vanished path: each noted once, counted per run", arguments: Kind.all)
    func journal(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        let first = try await apply(
            #"[{"id": 1, "name": "a", "nickname": "Amazing", "api_token": "s3cret", "address": {"zip": "1"}},"#
                + #" {"id": 2, "name": "b", "ns": {"a": 1}}]"#, to: storage, at: 1_700_000_000)
        #expect(first.newDrift.isEmpty, "the first run sets the baseline: in the journal, not said in the log")
        let second = try await apply(
            #"[{"id": 1, "name": "a", "nickname": "x", "tag": "t"}, {"id": 2, "name": 7}]"#, to: storage,
            at: 1_700_000_060)
        #expect(
            second.newDrift.map(\.sentence) == [
                #"new field "tag""#, #"type change at "name" (string → string/number)"#,
            ])
        let third = try await apply(#"[{"id": 1}, {"id": 2, "nickname": null}]"#, to: storage, at: 1_700_000_120)
        #expect(third.newDrift.map(\.sentence) == [#"no record holds "name""#])
        let fourth = try await apply(#"[{"id": 1}, {"id": 2, "nickname": null}]"#, to: storage, at: 1_700_000_180)
        #expect(fourth.newDrift.isEmpty, "what the journal holds is not new again")

        let journal = try await reads.read { try $0.drift(endpoint: "users") }
        let byPath = Dictionary(journal.map { ($0.kind.rawValue + " " + $0.path, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(journal.count == 7)
        let nickname = try #require(byPath["new_field nickname"])
        #expect((nickname.count, nickname.example) == (4, #""Amazing""#))
        #expect(nickname.firstSeen == "2023-11-14T22:13:20.000Z" && nickname.lastSeen == "2023-11-14T22:16:20.000Z")
        #expect(byPath["new_field api_token"]?.example == nil, "a secret's value is never kept")
        #expect(byPath["new_field address"]?.example == #"{"zip": "1"}"#)
        let changed = try #require(byPath["type_change name"])
        #expect((changed.detail, changed.example, changed.count) == ("string → string/number", "7", 1))
        let missing = try #require(byPath["missing_path name"])
        #expect((missing.detail, missing.count, missing.example) == ("column name", 2, nil))
        #expect(try await reads.read { try $0.drift(endpoint: "flags") }.isEmpty)
        #expect(try await reads.read { try $0.drift(endpoint: nil) }.count == 7)

        // A column now maps nickname, and none reads name: what the journal said of them no longer stands.
        let remapped = try SyncConfiguration.parse(
            StorageConformanceTests.toml.replacingOccurrences(of: #"name = "name""#, with: #"nickname = "nickname""#),
            sourcePath: directory.file("x.toml"))
        let run = SyncRun(endpoint: try #require(remapped.plan(named: "users")))
        let spool = BodySpool(directory: storage.spoolDirectory)
        try spool.append(ByteBuffer(string: #"[{"id": 1, "nickname": "n"}]"#))
        let fifth = try await storage.applyCollection(
            DecodedBody(spool: spool), run: run,
            facts: { RunFacts(startedAt: 1_700_000_240, finishedAt: 1_700_000_240, httpStatus: 200, bytes: 10) })
        #expect(fifth.newDrift.isEmpty)
        let left = try await reads.read { try $0.drift(endpoint: "users") }
        #expect(
            left.map { $0.kind.rawValue + " " + $0.path } == [
                "new_field address", "new_field api_token", "new_field ns", "new_field tag",
            ])
    }

    @Test(
        "an upstream inventing keys every run keeps at most 1,000 new fields per endpoint, those seen last",
        arguments: Kind.all)
    func bounded(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        for run in 0..<5 {
            // One record of 256 keys never sent before: a run notes at most 256 fields.
            let keys = (0..<256).map { #""k\#(run)_\#(String(format: "%03d", $0))": 1"# }
            _ = try await apply(
                #"[{"id": 1, "name": "a", "# + keys.joined(separator: ", ") + "}]", to: storage,
                at: 1_700_000_000 + Double(run) * 60)
        }
        let journal = try await reads.read { try $0.drift(endpoint: "users") }
        let paths = Set(journal.filter { $0.kind == .newField }.map(\.path))
        #expect(paths.count == DriftObservations.maxNewFields)
        func key(_ run: Int, _ index: Int) -> String { "k\(run)_\(String(format: "%03d", index))" }
        // The last three runs' 768 stay, and 232 of the second run's, first by path; none of the first run's.
        #expect((2..<5).allSatisfy { run in (0..<256).allSatisfy { paths.contains(key(run, $0)) } })
        #expect((0..<232).allSatisfy { paths.contains(key(1, $0)) } && !paths.contains(key(1, 232)))
        #expect(!paths.contains { $0.hasPrefix("k0_") })
        let again = try await apply(
            #"[{"id": 1, "name": "a", "k4_000": 2, "k0_000": 2}]"#, to: storage, at: 1_700_001_000)
        #expect(again.newDrift.map(\.sentence) == [#"new field "k0_000""#], "what went is new when it comes back")
        #expect(try await reads.read { try $0.drift(endpoint: "users") }.count == DriftObservations.maxNewFields)
    }

    @Test(
        "no secret is kept: not under a key that names one at any depth, nor inside an object or array",
        arguments: Kind.all)
    func secrets(kind: Kind) async throws {
        let (storage, reads) = try await kind.makeBoth(in: directory, open)
        _ = try await apply(
            #"[{"id": 1, "name": "a", "auth": {"user": "x", "password": "hunter2"}, "#
                + #""list": [{"k": 1}, {"API-Key": "s"}], "credentials": {"user": "u"}, "plain": {"a": "b"}}]"#,
            to: storage, at: 1_700_000_000)
        let journal = try await reads.read { try $0.drift(endpoint: "users") }
        let examples = Dictionary(journal.map { ($0.path, $0.example) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(examples.keys) == ["auth", "list", "credentials", "plain"])
        #expect(
            examples["auth"] == .some(nil) && examples["list"] == .some(nil) && examples["credentials"] == .some(nil))
        #expect(examples["plain"] == #"{"a": "b"}"#)
    }
}

/// The tally itself: what a walk notes, however the body is cut, within its bounds.
@Suite("schema drift: the tally of a run")
struct SchemaTallyTests {
    static let decoder = RecordDecoder(
        recordsPath: JSONPath.root,
        columns: [
            ColumnSpec(name: "id", path: JSONPath(components: [.key("id")]), type: .integer),
            ColumnSpec(name: "city", path: JSONPath(components: [.key("address"), .key("city")]), type: .text),
        ], keyColumns: [0], strict: false)

    static func tally(_ json: String, chunkSize: Int) throws -> SchemaTally {
        var chunked = ChunkedRecordDecoder(decoder, observingSchema: true)
        let bytes = Array(json.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try bytes[start..<min(bytes.count, start + chunkSize)].withUnsafeBytes { try chunked.feed($0) { _, _ in } }
        }
        _ = try chunked.finish()
        return try #require(chunked.schemaTally)
    }

    @Test("a field's name is a secret's by its words, whatever their case, underscores and dashes, in any script")
    func secretNames() {
        for name in ["token", "api_token", "API_KEY", "apiKey", "Pass-Word", "x_authorization_y", "tok_en", "PASSWD"] {
            #expect(SchemaTally.isSecret(name), "\(name)")
        }
        for name in ["", "name", "tokn", "pass", "key", "api", "author", "credit"] {
            #expect(!SchemaTally.isSecret(name), "\(name)")
        }
        // Names beyond ASCII are lowercased as Unicode does it: the Kelvin sign's lowercase is an ASCII k.
        #expect(SchemaTally.isSecret("to\u{212A}en"))
        #expect(SchemaTally.isSecret("ÜberToken"))
        #expect(SchemaTally.isSecret("Geheimes_PASSWORT_password"))
        #expect(!SchemaTally.isSecret("Straße"))
    }

    @Test("a value under a key that names a secret at any depth is never kept, nor one holding such a key")
    func nestedSecrets() throws {
        let decoder = RecordDecoder(
            recordsPath: JSONPath.root,
            columns: [
                ColumnSpec(name: "id", path: JSONPath(components: [.key("id")]), type: .integer),
                ColumnSpec(name: "kind", path: JSONPath(components: [.key("auth_token"), .key("kind")]), type: .text),
                ColumnSpec(name: "user", path: JSONPath(components: [.key("auth"), .key("user")]), type: .text),
            ], keyColumns: [0], strict: false)
        var chunked = ChunkedRecordDecoder(decoder, observingSchema: true)
        let json =
            #"[{"id": 1, "auth_token": {"kind": "x", "value": "s3cret"}, "auth": {"user": "u", "password": "p", "#
            + #""realm": {"name": "r"}, "hint": {"t": "a \"password\": b"}}, "info": {"k": {"passwd": 1}}}]"#
        try Array(json.utf8).withUnsafeBytes { try chunked.feed($0) { _, _ in } }
        _ = try chunked.finish()
        let tally = try #require(chunked.schemaTally)
        let examples = Dictionary(tally.fields.values.map { ($0.path, $0.example) }, uniquingKeysWith: { a, _ in a })
        #expect(examples["auth_token.value"] == .some(nil), "the secret's name is on the way, not at the end")
        #expect(examples["auth.password"] == .some(nil))
        #expect(examples["info"] == .some(nil), "an object holding a secret's key, however deep")
        #expect(examples["auth.realm"] == #"{"name": "r"}"#)
        #expect(examples["auth.hint"] == #"{"t": "a \"password\": b"}"#, "text inside a string is no key")
        #expect(SchemaTally.isSecret(JSONPath(components: [.key("credentials"), .key("user")])))
        #expect(!SchemaTally.isSecret(JSONPath(components: [.key("auth"), .index(0), .key("user")])))
    }

    @Test("fields beside the columns, nested ones by path, escaped keys unescaped", arguments: [1, 2, 3, 5, 7, 4096])
    func fields(chunkSize: Int) throws {
        let tally = try Self.tally(
            #"[{"id": 1, "address": {"city": "x", "zip": "75001"}, "n\u0061me": "Ann", "id": 3, "age": 123456789},"#
                + #" {"id": "2", "address": null, "password_hash": "$2b$…"}]"#, chunkSize: chunkSize)
        #expect(tally.records == 2)
        #expect(Set(tally.fields.values.map(\.path)) == ["address.zip", "name", "password_hash", "age"])
        #expect(
            tally.fields.values.first { $0.path == "age" }?.example == "123456789", "a number cut by a chunk is whole")
        #expect(tally.fields.values.first { $0.path == "password_hash" }?.example == nil)
        #expect(tally.fields.values.first { $0.path == "name" }?.example == #""Ann""#)
        #expect(tally.present == [2, 1])
        #expect(tally.types[0] == [.number, .string] && tally.types[1] == [.string])
    }

    @Test("a run reads back from the journal only its own fields and the configured paths with their objects")
    func readBackPaths() throws {
        let tally = try Self.tally(#"[{"id": 1, "address": {"city": "x", "zip": "1"}, "age": 3}]"#, chunkSize: 4096)
        let columns = [
            ColumnSpec(name: "id", path: JSONPath(components: [.key("id")]), type: .integer),
            ColumnSpec(name: "city", path: JSONPath(components: [.key("address"), .key("city")]), type: .text),
        ]
        let drift = DriftObservations(tally, columns: columns, storedTypes: [:])
        #expect(drift.readBackPaths == ["address", "address.city", "address.zip", "age", "id"])
        #expect(drift.readBackPathsJSON == #"["address","address.city","address.zip","age","id"]"#)
    }

    @Test("an upstream inventing a key per record keeps at most 256 fields, and long examples are cut")
    func bounds() throws {
        let records = (0..<1000).map { #"{"id": \#($0), "k\#($0)": "\#(String(repeating: "é", count: 100))"}"# }
        let tally = try Self.tally("[" + records.joined(separator: ",") + "]", chunkSize: 4096)
        #expect(tally.fields.count == SchemaTally.maxFields)
        let example = try #require(tally.fields.values.first?.example)
        #expect(example.hasSuffix("…") && example.utf8.count <= SchemaTally.maxExampleBytes + 3)
        let longKey = try Self.tally(#"[{"id": 1, "\#(String(repeating: "ü", count: 5000))": 1}]"#, chunkSize: 4096)
        let path = try #require(longKey.fields.values.first?.path)
        #expect(path.contains("…") && path.utf8.count <= SchemaTally.maxNameBytes + 12, "a key is cut, not kept whole")
    }
}

/// The journal where people and programs read it: the read API's route and SyncCache.
@Suite("schema drift: the read API and the library")
struct SchemaDriftReadingTests {
    @Test("GET /v1/endpoints/{name}/drift serves the journal; an endpoint not configured is a 404")
    func route() async throws {
        let files = try TemporaryDirectory()
        try #"[{"id": 1, "name": "Ann", "nickname": "A\n"}]"#.write(
            toFile: files.file("users.json"), atomically: true, encoding: .utf8)
        let fixture = try SyncFixture(
            toml: """
                [[endpoint]]
                name = "users"
                url = "\(URL(fileURLWithPath: files.file("users.json")).absoluteString)"
                records = "$"
                primary_key = ["id"]
                [endpoint.columns]
                id = { path = "id", type = "integer" }
                name = "name"
                """)
        #expect(try await fixture.sync("users").newDrift.isEmpty, "the first sync sets the baseline")
        try await ReadAPIHarness.with(fixture) { api in
            let answer = try await api.get("/v1/endpoints/users/drift")
            #expect(answer.status == 200 && answer.header("Content-Type") == "application/json")
            let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            #expect(object?["endpoint"] as? String == "users")
            let entries = try #require(object?["drift"] as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries.first?["kind"] as? String == "new_field" && entries.first?["path"] as? String == "nickname")
            #expect(entries.first?["example"] as? String == #""A\n""# && entries.first?["count"] as? Int == 1)
            #expect(try await api.get("/v1/endpoints/nope/drift").status == 404)
        }
        let cache = try SyncCache(readingFrom: fixture.directory.file("cache.db"))
        let journal = try await cache.drift("users")
        #expect(journal.map(\.path) == ["nickname"] && journal.first?.kind == .newField)
        await #expect(throws: SyncError.unknownEndpoint) { try await cache.drift("nope") }
        try await cache.shutdown()
    }
}
