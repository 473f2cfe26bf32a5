import Testing

@testable import SyncCore
@testable import SyncInfer

@Suite("Codable models from inferred shapes")
struct SwiftModelWriterTests {
    func render(_ json: String, name: String = "users") throws -> String {
        let (endpoint, shapes) = try EndpointInference(name: name, url: "https://example.com/users")
            .infer(Array(json.utf8))
        return SwiftModelWriter.render(shapes, endpoint: endpoint)
    }

    @Test("structs per shape, CodingKeys for renamed keys, optionals, typed arrays, skipped mixed values")
    func models() throws {
        let swift = try render(
            """
            [{"id": 1, "user_name": "a", "address": {"geo": {"lat": 1.5}}, "tags": [{"label": "x"}],
              "nums": [1, 2], "at": "2024-05-01T10:00:00Z", "mixed": 1, "nothing": null, "default": true},
             {"id": 2, "user_name": "b", "address": {"geo": {"lat": 2}}, "tags": [], "nums": [],
              "at": "2024-05-02", "mixed": "x", "nothing": null, "maybe": "y", "default": false}]
            """)
        #expect(
            swift == """
                // Codable models inferred by `syncd infer` from https://example.com/users.
                // The records are the array at "$" in the response (2 records read).
                typealias Users = [User]

                struct User: Codable, Sendable {
                    let id: Int
                    let userName: String
                    let address: Address
                    let tags: [Tag]
                    let nums: [Int]
                    let at: String  // RFC 3339 timestamp
                    // "mixed": values of different kinds; not decoded
                    // "nothing": always null; not decoded
                    let `default`: Bool
                    let maybe: String?

                    enum CodingKeys: String, CodingKey {
                        case id
                        case userName = "user_name"
                        case address
                        case tags
                        case nums
                        case at
                        case `default`
                        case maybe
                    }
                }

                struct Address: Codable, Sendable {
                    let geo: Geo
                }

                struct Tag: Codable, Sendable {
                    let label: String
                }

                struct Geo: Codable, Sendable {
                    let lat: Double
                }

                """)
    }

    @Test("a nested shape whose name is taken is prefixed with its parent's; reserved names get a suffix")
    func names() throws {
        let swift = try render(#"[{"user": {"string": {"a": 1}}, "id": 1}]"#)
        #expect(swift.contains("typealias Users = [User]"))
        #expect(swift.contains("let user: UserUser"))
        #expect(swift.contains("let string: StringObject"))
    }

    @Test("a document is one struct named after the endpoint")
    func document() throws {
        let swift = try render(#"{"beta": true}"#, name: "flags")
        #expect(swift.contains("// The response is one Flags.\n"))
        #expect(swift.contains("struct Flags: Codable, Sendable {\n    let beta: Bool\n}"))
    }
}
