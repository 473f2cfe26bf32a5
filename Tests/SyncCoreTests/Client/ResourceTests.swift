import Foundation
import SyncCore
import SyncTesting
import Testing

// Seed 003: a Resource pairs a request with its decoding; snake_case keys and ISO 8601 dates; one endpoint decoded
// two ways; map derives a resource.

private struct Person: Decodable, Equatable {
    let name: String
    let birthYear: String
    let createdAt: Date
}

private struct PersonSummary: Decodable, Equatable {
    let name: String
}

private let luke = """
    {"name": "Luke Skywalker", "birth_year": "19BBY", "created_at": "2014-12-09T13:50:51Z", "height": "172"}
    """

@Suite("Resource (seed 003)", .timeLimit(.minutes(1)))
struct ResourceTests {
    @Test("a Decodable resource uses its key and date strategies")
    func strategies() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/api/people/1", luke)
            let endpoint = APIRequest(baseURL: upstream.url("/api"), path: "people/1")
            let person = Resource(
                request: endpoint, as: Person.self, keyDecodingStrategy: .convertFromSnakeCase,
                dateDecodingStrategy: .iso8601)
            let fetched = try await APIClient.withClient { client in try await client.fetch(person) }
            #expect(fetched.name == "Luke Skywalker")
            #expect(fetched.birthYear == "19BBY")
            #expect(fetched.createdAt == Date(timeIntervalSince1970: 1_418_133_051))
        }
    }

    @Test("one endpoint decodes two ways, and map derives a third")
    func twoDecodingsOfOneEndpoint() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/api/people/1", luke)
            let endpoint = APIRequest(baseURL: upstream.url("/api/people/1"))
            let summary = Resource(request: endpoint, as: PersonSummary.self)
            let height = Resource(request: endpoint) { data in
                try JSONDecoder().decode(JSONValue.self, from: data)[path: "height"]?.stringValue.flatMap { Int($0) }
            }
            let shout = summary.map { $0.name.uppercased() }
            let (person, inches, loud) = try await APIClient.withClient { client in
                (try await client.fetch(summary), try await client.fetch(height), try await client.fetch(shout))
            }
            #expect(person == PersonSummary(name: "Luke Skywalker"))
            #expect(inches == 172)
            #expect(loud == "LUKE SKYWALKER")
            #expect(upstream.requests.count == 3)
        }
    }

    @Test("a date the strategy cannot read is .decoding whose reason names the format")
    func badDate() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/api/people/1", luke.replacingOccurrences(of: "2014-12-09T13:50:51Z", with: "yesterday"))
            let person = Resource(
                request: APIRequest(baseURL: upstream.url("/api/people/1")), as: Person.self,
                keyDecodingStrategy: .convertFromSnakeCase, dateDecodingStrategy: .iso8601)
            let client = APIClient()
            do {
                _ = try await client.fetch(person)
                Issue.record("decoded a bad date")
            } catch let error as APIError {
                // Foundation on Linux reports no coding path for a value a date strategy refused: the failure points
                // at the root and its reason says what was wrong.
                guard let failure = error.decodingFailure, error == .decoding else {
                    Issue.record("expected .decoding, got \(error)")
                    return
                }
                #expect(failure.path == "$" && failure.expected == "valid value")
                #expect(failure.reason.contains("ISO8601"))
            }
            try await client.shutdown()
        }
    }

    @Test("what a map throws is .decoding too")
    func mapThrows() async throws {
        struct TooShort: Error {}
        try await withTestUpstream { upstream in
            upstream.setJSON("/api/people/1", luke)
            let summary = Resource(request: APIRequest(baseURL: upstream.url("/api/people/1")), as: PersonSummary.self)
            let checked = summary.map { person throws -> String in
                guard person.name.count < 5 else { throw TooShort() }
                return person.name
            }
            let client = APIClient()
            do {
                _ = try await client.fetch(checked)
                Issue.record("the map did not throw")
            } catch let error as APIError {
                guard let failure = error.decodingFailure, error == .decoding else {
                    Issue.record("expected .decoding, got \(error)")
                    return
                }
                #expect(failure.path == "$" && failure.expected == "valid value" && failure.found == "object")
            }
            try await client.shutdown()
        }
    }
}
