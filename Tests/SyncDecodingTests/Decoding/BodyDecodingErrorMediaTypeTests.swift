import SyncTesting
import Testing

@testable import SyncCore

@Suite("Bodies that are not JSON name their media type")
struct BodyDecodingErrorMediaTypeTests {
    let decoder: RecordDecoder

    init() throws {
        decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "a", path: "a")])
    }

    @Test(
        "a media type other than JSON's is named, in lower case and without parameters",
        arguments: [
            ("text/html; charset=utf-8", "text/html"), ("TEXT/HTML", "text/html"), ("text/plain", "text/plain"),
            ("application/xml ;q=1", "application/xml"),
        ])
    func named(_ contentType: String, _ mediaType: String) throws {
        let error = try #require(decoder.bodyError("<html></html>")).naming(contentType: contentType)
        #expect(error == .notJSON)
        #expect(
            error.description
                == "the response is \(mediaType), not JSON: at byte 0 (line 1, column 1) expected a value, found \"<\"")
    }

    @Test(
        "JSON's media types, none, and anything but a plain type/subtype leave the sentence as it was",
        arguments: [
            "application/json", "application/problem+json", "text/json; charset=utf-8", nil, "", "html",
            "text/html\u{1B}[31m", "text/html/x", String(repeating: "a", count: 99) + "/b",
        ] as [String?])
    func unchanged(_ contentType: String?) throws {
        let error = try #require(decoder.bodyError("<html></html>"))
        #expect(error.naming(contentType: contentType).description == error.description)
    }

    @Test("errors other than syntax errors are left as they were")
    func otherErrors() throws {
        let error = try #require(decoder.bodyError("[1, 2"))
        #expect(error == .truncated)
        #expect(error.naming(contentType: "text/html").description == error.description)
    }
}
