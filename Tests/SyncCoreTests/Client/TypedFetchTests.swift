import Foundation
import SampleUpstream
import SyncCore
import SyncTesting
import Testing

// Seed 000: a typed fetch of jsonplaceholder-shaped users (models as quicktype writes them), and each way it fails.
// Only `import SyncCore`, without @testable: the public surface is enough.

private struct User: Codable, Equatable {
    let id: Int
    let name, username, email: String
    let address: Address
    let phone, website: String
    let company: Company
}

private struct Address: Codable, Equatable {
    let street, suite, city, zipcode: String
    let geo: Geo
}

private struct Geo: Codable, Equatable {
    let lat, lng: String
}

private struct Company: Codable, Equatable {
    let name, catchPhrase, bs: String
}

/// A model whose `lat` is a number, which jsonplaceholder's strings do not fit.
private struct StrictUser: Decodable {
    struct Address: Decodable { let geo: Geo }
    struct Geo: Decodable { let lat: Double }
    let id: Int
    let address: Address
}

private let leanne = """
    {
      "id": 1, "name": "Leanne Graham", "username": "Bret", "email": "Sincere@april.biz",
      "address": {
        "street": "Kulas Light", "suite": "Apt. 556", "city": "Gwenborough", "zipcode": "92998-3874",
        "geo": { "lat": "-37.3159", "lng": "81.1496" }
      },
      "phone": "1-770-736-8031 x56442", "website": "hildegard.org",
      "company": {
        "name": "Romaguera-Crona", "catchPhrase": "Multi-layered client-server neural-net",
        "bs": "harness real-time e-markets"
      }
    }
    """

@Suite("APIClient typed fetch (seed 000)", .timeLimit(.minutes(1)))
struct TypedFetchTests {
    @Test("the demo upstream's users decode into the quicktype models")
    func fetchesDemoUsers() async throws {
        let demo = DemoUpstream(userCount: 12)
        let server = try await LoopbackHTTPServer.start { demo.handle($0) }
        let users = try await APIClient.withClient { client in
            try await client.fetch(APIRequest(baseURL: server.baseURL, path: "/users"), as: [User].self)
        }
        try await server.shutdown()

        #expect(users.count == 12)
        #expect(users.map(\.id) == Array(1...12))
        #expect(users.allSatisfy { !$0.name.isEmpty && Double($0.address.geo.lat) != nil })
    }

    @Test("one user decodes, and the raw response keeps status, headers and body")
    func fetchesOneUserAndRaw() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users/1", leanne, etag: #""u1""#)
            try await APIClient.withClient { client in
                let endpoint = APIRequest(baseURL: upstream.url(""), path: "users/1")
                let user = try await client.fetch(endpoint, as: User.self)
                #expect(user.name == "Leanne Graham")
                #expect(user.address.geo == Geo(lat: "-37.3159", lng: "81.1496"))

                let response = try await client.response(for: endpoint)
                #expect(response.status == 200)
                #expect(response.headers.first(named: "etag") == #""u1""#)
                #expect(response.headers.first(named: "Content-Type") == "application/json")
                #expect(response.body == Data(leanne.utf8))
            }
        }
    }

    @Test("a 404 is .status with the code, the headers and the start of the body")
    func notFound() async throws {
        try await withTestUpstream { upstream in
            let error = await fetchError(APIRequest(baseURL: upstream.url("/nothing")), as: User.self)
            guard let error, error == .status else {
                Issue.record("expected .status, got \(String(describing: error))")
                return
            }
            #expect(error.code == .status && error.code.description == "status")
            #expect(error.status == 404)
            #expect(error.headers.first(named: "content-type") == "application/json")
            #expect(error.bodyPrefix == #"{"error":"not found"}"#)
            #expect(error.description == #"the server answered 404 Not Found: {"error":"not found"}"#)
        }
    }

    @Test("a 200 without a body is .emptyBody")
    func emptyBody() async throws {
        try await withTestUpstream { upstream in
            upstream.set("/users/1", .json([]))
            let error = await fetchError(APIRequest(baseURL: upstream.url("/users/1")), as: User.self)
            #expect(error == .emptyBody)
            #expect(error?.description == "the server answered with an empty body where JSON was expected")
        }
    }

    @Test("a value of the wrong type is .decoding with its JSON path, what was expected and what was found")
    func wrongType() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users/1", leanne)
            let error = await fetchError(APIRequest(baseURL: upstream.url("/users/1")), as: StrictUser.self)
            let failure = DecodingFailure(path: "address.geo.lat", expected: "real", found: #"string "-37.3159""#)
            guard let found = error?.decodingFailure, error == .decoding else {
                Issue.record("expected .decoding, got \(String(describing: error))")
                return
            }
            #expect(found.path == failure.path && found.expected == failure.expected && found.found == failure.found)
            #expect(
                error?.description == #"the body cannot be decoded: address.geo.lat (real): found string "-37.3159""#)
        }
    }

    @Test("a missing key and a body that is not JSON are .decoding too")
    func missingKeyAndMalformed() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/partial", #"{"id": 1, "address": {"geo": {}}}"#)
            upstream.setJSON("/broken", #"{"id": 1, "address": "#)
            let missing = await fetchError(APIRequest(baseURL: upstream.url("/partial")), as: StrictUser.self)
            #expect(missing?.description == "the body cannot be decoded: address.geo.lat (value): found missing")
            let broken = await fetchError(APIRequest(baseURL: upstream.url("/broken")), as: StrictUser.self)
            #expect(broken?.description == "the body cannot be decoded: $ (JSON): found invalid JSON")
        }
    }

    @Test("a port nobody listens on is .transport, and a bad base URL is .invalidURL before any request")
    func transportAndInvalidURL() async throws {
        let server = try await LoopbackHTTPServer.start { _ in UpstreamResponse(status: 200) }
        let deadURL = server.baseURL
        try await server.shutdown()

        let dead = await fetchError(APIRequest(baseURL: deadURL, path: "/users"), as: User.self)
        guard let dead, dead == .transport else {
            Issue.record("expected .transport, got \(String(describing: dead))")
            return
        }
        #expect(dead.description == "the connection failed: Connection refused")

        let invalid = await fetchError(
            APIRequest(baseURL: "localhost:8080?token=secret", path: "/users"), as: User.self)
        #expect(invalid == .invalidURL)
        #expect(
            invalid?.description == #"invalid URL: the base URL "localhost:8080" is not an absolute http or https URL"#)
        #expect(invalid?.description.contains("secret") == false)
    }

    @Test("a body over the client's limit is .bodyTooLarge")
    func bodyTooLarge() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users/1", leanne)
            let configuration = APIClient.Configuration(maxBodyBytes: 64)
            let error = await fetchError(
                APIRequest(baseURL: upstream.url("/users/1")), as: User.self, configuration: configuration)
            #expect(error == .bodyTooLarge && error?.limit == 64)
            #expect(error?.description == "the body is larger than the limit of 64 B")
        }
    }
}

/// The error a fetch throws, or `nil` (recorded as an issue) when it succeeds.
private func fetchError<T: Decodable>(
    _ endpoint: APIRequest, as type: T.Type, configuration: APIClient.Configuration = .init()
) async -> APIError? {
    let client = APIClient(configuration: configuration)
    do {
        _ = try await client.fetch(endpoint, as: type)
        Issue.record("the fetch succeeded")
    } catch {
        try? await client.shutdown()
        return error
    }
    try? await client.shutdown()
    return nil
}
