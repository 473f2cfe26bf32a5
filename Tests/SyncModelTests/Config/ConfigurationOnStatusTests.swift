import SyncTesting
import Testing

@testable import SyncCore

/// `on_status` in syncd.toml and in Swift: statuses 400 to 599 but 401, each `"empty"` or `"skip"`, a document's
/// `"skip"` only; every refusal names the line and the key.
@Suite("configuration: on_status")
struct ConfigurationOnStatusTests {
    static func endpoint(_ line: String, records: Bool = true, defaults: String = "") -> String {
        """
        \(defaults.isEmpty ? "" : "[defaults]\n" + defaults)
        [[endpoint]]
        name = "repos"
        url = "https://api.example.com/repos"
        \(records ? "records = \"$\"\nprimary_key = [\"id\"]\ncolumns = { id = \"id\" }" : "")
        \(line)
        """
    }

    @Test("statuses and their words are read; [defaults] gives them to every endpoint")
    func valid() throws {
        let configuration = try SyncConfiguration.parse(
            Self.endpoint(#"on_status = { 404 = "empty", 410 = "empty", 403 = "skip", 599 = "skip" }"#),
            sourcePath: "syncd.toml")
        let repos = try #require(configuration.endpoints.first)
        #expect(repos.onStatus == [404: .empty, 410: .empty, 403: .skip, 599: .skip])
        #expect(try #require(configuration.plans.first).statusPolicy.decision(for: 410) == .empty)
        let inherited = try SyncConfiguration.parse(
            Self.endpoint("", defaults: #"on_status = { 404 = "empty" }"#), sourcePath: "syncd.toml")
        #expect(inherited.endpoints.first?.onStatus == [404: .empty])
        let overridden = try SyncConfiguration.parse(
            Self.endpoint(#"on_status = { 403 = "skip" }"#, defaults: #"on_status = { 404 = "empty" }"#),
            sourcePath: "syncd.toml")
        #expect(overridden.endpoints.first?.onStatus == [403: .skip])
    }

    @Test(
        "a status it cannot map, or another word, is refused at its line",
        arguments: [
            (#"on_status = { 401 = "skip" }"#, #""401" cannot be mapped"#),
            (#"on_status = { 200 = "empty" }"#, #""200" cannot be mapped"#),
            (#"on_status = { 304 = "skip" }"#, #""304" cannot be mapped"#),
            (#"on_status = { 600 = "skip" }"#, #""600" cannot be mapped"#),
            (#"on_status = { 0404 = "skip" }"#, #""0404" cannot be mapped"#),
            (#"on_status = { abc = "skip" }"#, #""abc" cannot be mapped"#),
            (#"on_status = { 404 = "delete" }"#, #"on_status: 404 must be "empty" or "skip""#),
            (#"on_status = { 404 = true }"#, #"on_status: 404 must be "empty" or "skip""#),
            (#"on_status = "skip""#, "on_status must be an inline table"),
        ])
    func refused(_ line: String, _ message: String) {
        let problems = configurationProblems(Self.endpoint(line))
        #expect(problems.count == 1 && problems.first?.hasPrefix("syncd.toml:8: [[endpoint]] \"repos\": ") == true)
        #expect(problems.first?.contains(message) == true, "\(problems)")
        if message.hasSuffix("cannot be mapped") {
            #expect(
                problems.first?.hasSuffix(
                    "use a status from 400 to 599 but 401: a 2xx or 304 has its own meaning, and a 401 renews credentials"
                ) == true)
        }
    }

    @Test("a document endpoint takes skip only; an empty from [defaults] is the collections'")
    func document() throws {
        let problems = configurationProblems(
            Self.endpoint(#"on_status = { 404 = "empty", 403 = "skip" }"#, records: false))
        #expect(
            problems == [
                #"syncd.toml:6: [[endpoint]] "repos": on_status: 404 = "empty": a document endpoint takes only "skip" (a document has no empty form)"#
            ])
        let inherited = try SyncConfiguration.parse(
            Self.endpoint("", records: false, defaults: #"on_status = { 404 = "empty", 403 = "skip" }"#),
            sourcePath: "syncd.toml")
        #expect(inherited.endpoints.first?.onStatus == [403: .skip])
    }

    @Test("SyncEndpoint takes the same statuses and refuses the same mistakes")
    func swift() throws {
        var repos = SyncEndpoint(
            name: "repos", url: "https://api.example.com/repos", records: "$", primaryKey: ["id"],
            columns: [.init("id")])
        repos.onStatus = [404: .empty, 403: .skip]
        var problems: [String] = []
        #expect(repos.compile(into: &problems)?.statusPolicy.decision(for: 403) == .skip && problems.isEmpty)
        repos.onStatus = [401: .skip, 200: .empty]
        #expect(repos.compile(into: &problems) == nil)
        #expect(
            problems == [
                "on_status: 200 cannot be mapped: use a status from 400 to 599 but 401: a 2xx or 304 has its own "
                    + "meaning, and a 401 renews credentials",
                "on_status: 401 cannot be mapped: use a status from 400 to 599 but 401: a 2xx or 304 has its own "
                    + "meaning, and a 401 renews credentials",
            ])
        var document = SyncEndpoint(name: "config", url: "https://api.example.com/config")
        document.onStatus = [404: .empty]
        problems = []
        #expect(document.compile(into: &problems) == nil)
        #expect(
            problems.first?.hasSuffix("a document endpoint takes only \"skip\" (a document has no empty form)") == true)
    }
}
