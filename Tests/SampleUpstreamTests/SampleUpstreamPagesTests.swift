import SampleUpstream
import Testing

@Suite("sample upstream: pages")
struct SampleUpstreamPagesTests {
    @Test("the pages hold the single body's records, byte for byte, the last page short")
    func pagesMatchTheSingleBody() throws {
        let pages = SampleUsers.pages(count: 25, pageSize: 10)
        #expect(pages.count == 3)
        func inner(_ array: [UInt8]) -> [UInt8] { Array(array.dropFirst().dropLast(2)) }  // "[" and "\n]"
        let joined = pages.map(inner).joined(separator: Array(",".utf8))
        #expect(Array(joined) == inner(SampleUsers.json(count: 25)))
        #expect(SampleUsers.pages(count: 0, pageSize: 10).isEmpty)
    }
}
