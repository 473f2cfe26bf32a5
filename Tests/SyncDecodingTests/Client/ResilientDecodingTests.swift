import Foundation
import SyncCore
import SyncTesting
import Testing

// Seed 002: decode an array of ordinary Decodable models, keep the good elements, report each bad one with its
// path, in the words of syncd's record problems.

private struct Person: Decodable, Equatable {
    let personId: Int
    let firstName: String
    let lastName: String
    let contactInfo: ContactInfo?
    let height: Double?

    struct ContactInfo: Decodable, Equatable {
        let phoneNumber: String
    }
}

private struct User: Decodable, Equatable {
    struct Address: Decodable, Equatable { let geo: Geo }
    struct Geo: Decodable, Equatable { let lat: Double }
    let id: Int
    let email: String
    let address: Address
}

private let users = """
    [
      {"id": 7, "email": "a@example.com", "address": {"geo": {"lat": -37.3159}}},
      {"id": 8, "email": "b@example.com", "address": {"geo": {"lat": "tall"}}},
      {"email": "c@example.com", "address": {"geo": {"lat": 1.5}}},
      {"id": 10, "address": {"geo": {"lat": 2}}},
      {"id": "u-11", "email": true, "address": {"geo": {"lat": 2}}},
      {"id": 12, "email": "d@example.com", "address": {"geo": {"lat": 0}}},
      [1, 2]
    ]
    """

@Suite("Resilient decoding (seed 002)", .timeLimit(.minutes(1)))
struct ResilientDecodingTests {
    @Test("good elements are kept and each bad one is reported like a syncd record problem")
    func salvagesAndReports() throws {
        let result = try ResilientDecoder().decodeArray(User.self, from: Data(users.utf8), named: "users")

        #expect(result.values.map(\.id) == [7, 12])
        #expect(
            result.problems.map(\.description) == [
                #"users[id=8] > address.geo.lat (real): found string "tall""#,
                "users[#2] > id (value): found missing",
                "users[id=10] > email (value): found missing",
                #"users[id=u-11] > id (integer): found string "u-11""#,
                "users[#6] > $ (object): found array",
            ])
        let first = try #require(result.problems.first)
        #expect(first.index == 1 && first.id == "8")
        #expect(first.path == "address.geo.lat" && first.expected == "real" && first.found == #"string "tall""#)
    }

    @Test("the seed's person: a string height fails that person alone, with a snake_case path")
    func personWithStringHeight() throws {
        let body = """
            [
              {"person_id": 8675309, "first_name": "Mary", "last_name": "Smith",
               "contact_info": {"phone_number": "(312) 555-1212"}, "height": "really tall"},
              {"person_id": 42, "first_name": "Ada", "last_name": "Lovelace", "height": 1.65}
            ]
            """
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let result = try ResilientDecoder(decoder: decoder).decodeArray(Person.self, from: Data(body.utf8))

        #expect(result.values.map(\.firstName) == ["Ada"])
        #expect(result.problems.map(\.description) == [#"[#0] > height (real): found string "really tall""#])
    }

    @Test("a long string is cut after 40 characters, as syncd cuts it")
    func longValuesAreCut() throws {
        let long = String(repeating: "x", count: 45)
        let body = #"[{"id": 1, "email": "e", "address": {"geo": {"lat": "\#(long)"}}}]"#
        let result = try ResilientDecoder().decodeArray(User.self, from: Data(body.utf8), named: "users")
        #expect(
            result.problems.map(\.description) == [
                #"users[id=1] > address.geo.lat (real): found string ""# + String(repeating: "x", count: 40) + #"…""#
            ])
    }

    @Test("a body that is not an array, or not JSON, throws one DecodingFailure")
    func notAnArray() {
        for (body, expected) in [
            (#"{"users": []}"#, "$ (array): found object"), ("[{", "$ (JSON): found invalid JSON"),
        ] {
            do {
                _ = try ResilientDecoder().decodeArray(User.self, from: Data(body.utf8))
                Issue.record("decoded \(body)")
            } catch {
                #expect(error.description == expected)
            }
        }
    }

    @Test("over HTTP: a Resource decodes the body resiliently")
    func resilientResource() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", users)
            let resource = Resource(request: APIRequest(baseURL: upstream.url("/users"))) { data in
                try ResilientDecoder().decodeArray(User.self, from: data, named: "users")
            }
            let result = try await APIClient.withClient { client in try await client.fetch(resource) }
            #expect(result.values.count == 2)
            #expect(result.problems.count == 5)
        }
    }
}
