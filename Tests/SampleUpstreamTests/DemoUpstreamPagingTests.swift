import SampleUpstream
import Testing

/// `DemoUpstream` pages `/users` as GitHub does once the users outgrow a page, so `syncd demo` syncs any `--users` in
/// bodies far below `max_body`, and a 304 to the first page still stands for the whole collection.
@Suite("DemoUpstream's pages")
struct DemoUpstreamPagingTests {
    @Test("the pages of every generation hold the records of the single body, byte for byte, in order")
    func pagesHoldTheBody() {
        let demo = DemoUpstream(userCount: 25, pageSize: 10)
        for generation in 0...2 {
            #expect(demo.pageCount == 3)
            let pages = (1...3).map { demo.handle(UpstreamRequest(uri: "/users?page=\($0)")).body }
            #expect(demo.handle(UpstreamRequest(uri: "/users")).body == pages[0], "the bare URL is page 1")
            #expect(Self.records(pages) == Self.records([SampleUsers.json(count: 25, generation: generation)]))
            #expect(demo.handle(UpstreamRequest(uri: "/users?page=4")).body == Array("[]".utf8))
            demo.advance()
        }
    }

    @Test("a collection that fits one page is the single body, with no Link field")
    func onePage() {
        let demo = DemoUpstream(userCount: 10, pageSize: 10)
        let response = demo.handle(UpstreamRequest(uri: "/users"))
        #expect(demo.pageCount == 1)
        #expect(response.body == SampleUsers.json(count: 10))
        #expect(!response.headers.contains { $0.name == "Link" })
    }

    @Test(
        "each page's Link field names the next and last pages, and the previous and first after the first",
        arguments: [
            ("/users", #"</users?page=2>; rel="next", </users?page=3>; rel="last""#),
            (
                "/users?page=2",
                #"</users?page=1>; rel="prev", </users?page=3>; rel="next", </users?page=3>; rel="last", "#
                    + #"</users?page=1>; rel="first""#
            ),
            ("/users?page=3", #"</users?page=2>; rel="prev", </users?page=1>; rel="first""#),
            ("/users?page=9", #"</users?page=3>; rel="prev", </users?page=1>; rel="first""#),
        ]
    )
    func links(target: String, link: String) {
        let response = DemoUpstream(userCount: 21, pageSize: 10).handle(UpstreamRequest(uri: target))
        #expect(response.status == 200)
        #expect(response.headers.filter { $0.name == "Link" }.map(\.value) == [link])
    }

    @Test("every page carries the collection's ETag: a 304 to the first page means no page changed")
    func validatorsOfTheCollection() {
        let demo = DemoUpstream(userCount: 25, pageSize: 10)
        for page in 1...3 {
            let response = demo.handle(UpstreamRequest(uri: "/users?page=\(page)"))
            #expect(response.headers.contains { $0.name == "ETag" && $0.value == #""users-g0""# })
        }
        let revalidated = demo.handle(UpstreamRequest(uri: "/users", headers: [("If-None-Match", #""users-g0""#)]))
        #expect(revalidated.status == 304)
        #expect(revalidated.headers.contains { $0.name == "Link" })
        demo.advance()
        let changed = demo.handle(UpstreamRequest(uri: "/users", headers: [("If-None-Match", #""users-g0""#)]))
        #expect(changed.status == 200)
        #expect(changed.headers.contains { $0.name == "ETag" && $0.value == #""users-g1""# })
    }

    @Test("a page that is not a whole number from 1 is a 400 problem", arguments: ["0", "-1", "two", ""])
    func badPage(page: String) {
        let response = DemoUpstream(userCount: 25, pageSize: 10).handle(UpstreamRequest(uri: "/users?page=\(page)"))
        #expect(response.status == 400)
        #expect(response.headers.contains { $0.value == "application/problem+json" })
    }

    /// The records of JSON arrays written as `SampleUsers` writes them, joined: each array without its brackets and
    /// its closing newline, with a comma between arrays.
    private static func records(_ arrays: [[UInt8]]) -> [UInt8] {
        let inner = arrays.map { array in
            Array(array.dropFirst().dropLast(array.count > 2 ? 2 : 1))
        }
        return Array(inner.filter { !$0.isEmpty }.joined(separator: Array(",".utf8)))
    }
}
