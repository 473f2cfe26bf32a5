import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// A document sent as JSON whose body does not parse does not replace the stored document.
@Suite("sync: documents sent as JSON")
struct DocumentJSONTests {
    static func storedBody(_ fixture: SyncFixture) throws -> String? {
        let document = try fixture.read {
            try RecordReader(database: $0, endpoint: try fixture.endpoint("flags")).document()
        }
        return document.map { String(decoding: $0.body, as: UTF8.self) }
    }

    @Test(
        "a truncated or broken body sent as JSON fails the run and keeps the previous document",
        arguments: [
            ("application/json", #"{"beta": tr"#, "the response is truncated: it ends inside a literal"),
            (
                "application/problem+json; charset=utf-8", #"{"beta": true} x"#,
                "the response has trailing data after the JSON value"
            ),
            ("Application/JSON", "", "the response is not valid JSON: it is empty"),
        ])
    func brokenJSON(_ contentType: String, _ body: String, _ sentence: String) async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/flags.json", #"{"beta": true}"#)
            let fixture = try SyncFixture(
                toml: "[[endpoint]]\nname = \"flags\"\nurl = \"\(upstream.url("/flags.json"))\"\n")
            _ = try await fixture.sync("flags")

            upstream.set("/flags.json", .json(Array(body.utf8), headers: [("Content-Type", contentType)]))
            let report = try await fixture.sync("flags")

            #expect(report.outcome == .failed)
            let error = try #require(report.error)
            #expect(error.hasPrefix("flags: \(sentence)"), "\(error)")
            #expect(error.hasSuffix(", though its Content-Type says JSON; kept the stored document"))
            #expect(try Self.storedBody(fixture) == #"{"beta": true}"#)
        }
    }

    @Test("a body of another content type is stored as it is")
    func otherContentType() async throws {
        try await withTestUpstream { upstream in
            upstream.set(
                "/flags.json", UpstreamResponse(headers: [("Content-Type", "text/plain")], body: Array("{beta".utf8)))
            let fixture = try SyncFixture(
                toml: "[[endpoint]]\nname = \"flags\"\nurl = \"\(upstream.url("/flags.json"))\"\n")
            #expect(try await fixture.sync("flags").outcome == .changed)
            #expect(try Self.storedBody(fixture) == "{beta")
        }
    }

    @Test(
        "only JSON media types are checked",
        arguments: [
            ("application/json", true), ("application/vnd.api+json", true), (" application/json ; q=1", true),
            ("text/json", false), ("application/jsonp", false), ("application/json-seq", false), (nil, false),
        ] as [(String?, Bool)])
    func mediaTypes(_ contentType: String?, _ isJSON: Bool) {
        #expect(JSONDocumentCheck.isJSON(contentType: contentType) == isJSON)
    }
}
