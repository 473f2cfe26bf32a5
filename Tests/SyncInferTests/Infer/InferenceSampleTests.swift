import SampleUpstream
import Testing

@testable import SyncCore
@testable import SyncHTTP
@testable import SyncInfer

/// Several pages summarized into one sample: `required` and the key hold over every record read, and a single page
/// of several proposes no `required`.
@Suite("Inferring from several pages")
struct InferenceSampleTests {
    let inference = EndpointInference(name: "items", url: "https://example.com/items")

    /// The sample of `pages`, added one after the other; the facts of the last.
    func sample(_ pages: [String]) throws -> (InferenceSample, PageWalker.Page?) {
        var bytes = Array((pages.first ?? "").utf8)
        var sample = try bytes.withUnsafeBytes { raw in
            try Result { () throws(InferenceError) in try inference.sample(raw) }.get()
        }
        var facts: PageWalker.Page? = sample.firstFacts
        for page in pages.dropFirst() {
            bytes = Array(page.utf8)
            facts = try bytes.withUnsafeBytes { raw in
                try Result { () throws(InferenceError) in try sample.add(raw) }.get()
            }
        }
        return (sample, facts)
    }

    @Test("a value missing from one record of page 2 is not required; one every record of both pages has is")
    func requiredOverPages() throws {
        let (sample, _) = try sample([
            #"{"data": [{"id": 1, "year": 1970, "t": "a"}, {"id": 2, "year": 1971, "t": "b"}]}"#,
            #"{"data": [{"id": 3, "t": "c"}, {"id": 4, "year": null, "t": "d"}]}"#,
        ])
        let endpoint = sample.result(morePages: false).endpoint
        #expect(endpoint.recordCount == 4)
        #expect(endpoint.pagesRead == 2)
        #expect(endpoint.columns.map { "\($0.name):\($0.required)" } == ["id:true", "year:false", "t:true"])
        #expect(endpoint.primaryKey == "id")
        #expect(!endpoint.withholdsRequired)
    }

    @Test("a key repeated on a later page is no key; a key new on page 2 is tracked from there")
    func keyOverPages() throws {
        let (repeated, _) = try sample([#"[{"id": 1}, {"id": 2}]"#, #"[{"id": 2}, {"id": 3}]"#])
        #expect(repeated.result(morePages: false).endpoint.primaryKey == nil)
        let (distinct, _) = try sample([#"[{"id": 1}, {"id": 2}]"#, #"[{"id": 3}, {"id": 4}]"#])
        #expect(distinct.result(morePages: false).endpoint.primaryKey == "id")
    }

    @Test("an empty page counts no records and no page; a page without the records path gives no facts")
    func emptyAndMissing() throws {
        let (empty, facts) = try sample([#"{"items": [{"id": 1}]}"#, #"{"items": []}"#])
        #expect(facts?.records == 0)
        #expect(empty.pagesRead == 1)
        let (_, missing) = try sample([#"{"items": [{"id": 1}]}"#, #"{"error": "gone"}"#])
        #expect(missing == nil)
        #expect(throws: InferenceError.notJSON) { try sample([#"{"items": [{"id": 1}]}"#, #"{"items": [}"#]) }
    }

    @Test("one page of several: required is withheld in the stanza, as comments, but the key stays required")
    func onePageOfSeveral() throws {
        let (sample, _) = try sample([#"{"data": [{"id": 1, "t": "a", "n": null}], "next_cursor": "x"}"#])
        let endpoint = sample.result(morePages: true).endpoint
        #expect(endpoint.withholdsRequired)
        let stanza = EndpointStanza.render(endpoint)
        #expect(stanza.contains("\n[endpoint.columns]\n# Only the first page was read, and more follow: "))
        #expect(
            stanza.split(separator: "\n").suffix(3) == [
                #"id = { path = "id", type = "integer", required = true }"#,
                #"t = { path = "t", type = "text" }  # required = true"#, #"n = { path = "n", type = "text" }"#,
            ])
    }

    @Test("a single page decides whether more follow by the pagination proposed, as a sync would walk it")
    func mayContinue() throws {
        let page = #"{"page": 1, "per_page": 2, "total_results": 3, "results": [{"id": 1}, {"id": 2}]}"#
        #expect(try sample([page]).0.mayContinueAfterFirst)
        let last = #"{"page": 1, "per_page": 2, "total_results": 1, "results": [{"id": 1}]}"#
        #expect(try !sample([last]).0.mayContinueAfterFirst)
        #expect(try !sample([#"[{"id": 1}]"#]).0.mayContinueAfterFirst)
        // A proposal too unsure to follow: pages may follow.
        #expect(try sample([#"{"data": [{"id": 1}], "meta": {"next_cursor": "abc"}}"#]).0.mayContinueAfterFirst)
    }

    @Test("an array of numbers or strings is a document; an empty array has no records, in one sentence")
    func arraysOfScalars() throws {
        for body in ["[1, 2, 3]", #"["a", "b"]"#, #"[{"id": 1}, 2]"#] {
            let endpoint = try inference.infer(Array(body.utf8)).endpoint
            #expect(endpoint.isDocument, "\(body)")
        }
        #expect(
            EndpointStanza.render(try inference.infer(Array("[1, 2]".utf8)).endpoint)
                == """
                # No array of objects in the response: a document endpoint caches the whole body.
                [[endpoint]]
                name = "items"
                url = "https://example.com/items"

                """)
        do {
            _ = try inference.infer(Array("[ ]".utf8))
            Issue.record("an empty array was inferred")
        } catch {
            #expect(
                error.description
                    == "the response is an empty array, with no records to infer columns from; infer from a response "
                    + "that holds some")
        }
    }
}
