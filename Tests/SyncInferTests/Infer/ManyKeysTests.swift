import Testing

@testable import SyncCore
@testable import SyncInfer

/// Samples with tens of thousands of distinct keys: every step stays linear in them, which the tests show by the
/// exact outcome and by the tree's count of key comparisons, never by the time taken.
@Suite("Inferring from samples with many distinct keys")
struct ManyKeysTests {
    static let keyCount = 50_000

    /// `k00042`: distinct names that sort in the order they are written.
    static func key(_ index: Int) -> String {
        let digits = String(index)
        return "k" + String(repeating: "0", count: 5 - digits.count) + digits
    }

    func infer(_ body: String) throws -> (InferredEndpoint, InferredShapes) {
        try EndpointInference(name: "wide", url: "https://example.com/wide").infer(Array(body.utf8))
    }

    @Test("records of 50,000 distinct keys: 40 columns, the rest left out, at most two key comparisons a key")
    func wideRecords() throws {
        let record = "{" + (0..<Self.keyCount).map { "\"\(Self.key($0))\": \($0)" }.joined(separator: ", ") + "}"
        // The second record repeats the keys in order: each is found at its hint.
        let (endpoint, shapes) = try infer("[\(record), \(record)]")
        #expect(endpoint.columns.map(\.name) == (0..<40).map(Self.key))
        #expect(endpoint.columns.allSatisfy { $0.type == .integer && $0.required })
        #expect(endpoint.leftOut.count == Self.keyCount - 40)
        #expect(endpoint.leftOut.last == JSONPath(components: [.key(Self.key(Self.keyCount - 1))]))
        #expect(shapes.tree.nodes[0].children.count == Self.keyCount)
        #expect(shapes.tree.keyComparisons <= 2 * (2 * Self.keyCount))
        let stanza = EndpointStanza.render(endpoint)
        #expect(
            stanza.hasSuffix(
                "# Left out past 40 columns: k00040, k00041, k00042, k00043, k00044, k00045, k00046, "
                    + "k00047, k00048, k00049, and 49950 more. The whole record stays in _raw.\n"))
    }

    @Test("500 records of 100 keys each, all distinct: 50,000 optional paths, at most two key comparisons a key")
    func distinctKeysAcrossRecords() throws {
        let records = (0..<500).map { record in
            "{" + (0..<100).map { "\"\(Self.key(record * 100 + $0))\": true" }.joined(separator: ",") + "}"
        }
        let (endpoint, shapes) = try infer("[" + records.joined(separator: ",\n") + "]")
        #expect(endpoint.recordCount == 500)
        #expect(endpoint.columns.map(\.name) == (0..<40).map(Self.key))
        #expect(endpoint.columns.allSatisfy { $0.type == .boolean && !$0.required })
        #expect(endpoint.leftOut.count == Self.keyCount - 40)
        #expect(endpoint.primaryKey == nil)
        // Two a key (the hint, then the index), and the first keys compared one by one.
        let firstKeys = ShapeTree.scannedChildren * ShapeTree.scannedChildren
        #expect(shapes.tree.keyComparisons <= 2 * Self.keyCount + firstKeys)
    }

    @Test("20,000 arrays of the same size: the first eight are compared, the first is chosen")
    func manySameSizeArrays() throws {
        let arrays = (0..<20_000).map { "\"\(Self.key($0))\": [{\"id\": \($0)}]" }
        let endpoint = try infer("{" + arrays.joined(separator: ",") + "}").0
        #expect(endpoint.recordsPath == JSONPath(components: [.key("k00000")]))
        let later = (1..<RecordsChoice.maximumContenders).map { "\"\(Self.key($0))\" is no better and comes later" }
        #expect(endpoint.choice == "of the arrays of 1, " + later.joined(separator: ", "))
        #expect(endpoint.otherCandidates.count == 19_999)
    }

    @Test("--swift for 20,000 keys of one name: properties and structs numbered in order")
    func swiftNamesOfOneWord() throws {
        // Keys without an ASCII letter all read as `value`; each holds an object, so each needs a struct too.
        let keys = (0..<20_000).map { String(Character(Unicode.Scalar(0x4E00 + $0) ?? "x")) }
        let body = "[{" + keys.map { "\"\($0)\": {\"n\": 1}" }.joined(separator: ",") + "}]"
        let (endpoint, shapes) = try EndpointInference(name: "users", url: "https://example.com/users")
            .infer(Array(body.utf8))
        let swift = SwiftModelWriter.render(shapes, endpoint: endpoint)
        let lines = swift.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("    let value") }.count == 20_000)
        #expect(swift.contains("struct User: Codable, Sendable {\n    let value: Value\n    let value2: UserValue\n"))
        #expect(swift.contains("\n    let value20000: UserValue19999\n"))
        #expect(swift.contains("\nstruct UserValue19999: Codable, Sendable {\n    let n: Int\n}\n"))
    }
}
