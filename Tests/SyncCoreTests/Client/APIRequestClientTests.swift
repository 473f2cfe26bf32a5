import Foundation
import SampleUpstream
import SyncCore
import SyncTesting
import Testing

// Seed 001: endpoints described as values (base URL, path, query, headers, method, auth) and one generic client.

private struct MovieFeedResult: Decodable {
    let results: [Movie]
}

private struct Movie: Decodable {
    let id: Int
    let title: String
    let voteAverage: Double

    enum CodingKeys: String, CodingKey {
        case id, title
        case voteAverage = "vote_average"
    }
}

private let nowPlaying = """
    {"page": 1, "results": [
      {"id": 11, "title": "Star Wars", "vote_average": 8.1},
      {"id": 12, "title": "Finding Nemo", "vote_average": 7.8}
    ]}
    """

@Suite("APIClient endpoints (seed 001)", .timeLimit(.minutes(1)))
struct EndpointClientTests {
    @Test("the endpoint's path joins the base URL's, its query follows, and a query credential is added")
    func pathQueryAndQueryCredential() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/3/movie/now_playing", nowPlaying)
            let endpoint = APIRequest(
                baseURL: upstream.url("/3/"), path: "/movie/now_playing",
                queryItems: [URLQueryItem(name: "language", value: "en US")],
                headers: [HTTPHeader(name: "Accept-Language", value: "en")],
                credential: .query(name: "api_key", value: .literal("k3y")))
            let feed = try await APIClient.withClient { client in
                try await client.fetch(endpoint, as: MovieFeedResult.self)
            }
            #expect(feed.results.map(\.title) == ["Star Wars", "Finding Nemo"])
            #expect(feed.results.map(\.voteAverage) == [8.1, 7.8])

            let request = try #require(upstream.requests.first)
            #expect(request.method == "GET")
            #expect(request.path == "/3/movie/now_playing")
            #expect(request.query == ["language": "en US", "api_key": "k3y"])
            #expect(request.header("Accept-Language") == "en")
            #expect(request.header("Accept") == "application/json")
            #expect(try endpoint.url() == upstream.url("/3/movie/now_playing?language=en%20US"))
        }
    }

    @Test("bearer, basic and header credentials read literal, environment, file and systemd credential secrets")
    func headerCredentials() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("syncd-client-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // best effort: a leftover file harms nothing
        try Data("from-file\n".utf8).write(to: directory.appendingPathComponent("token"))
        try Data("from-credential".utf8).write(to: directory.appendingPathComponent("users_key"))

        try await withTestUpstream { upstream in
            upstream.setJSON("/me", #"{"id": 1}"#)
            let environment = ["USERS_PASSWORD": "s3cret", "CREDENTIALS_DIRECTORY": directory.path]
            let credentials: [Credential] = [
                .bearer(.literal("t0ken")),
                .basic(username: "ada", password: .environment("USERS_PASSWORD")),
                .header(name: "X-API-Key", value: .file(path: directory.appendingPathComponent("token").path)),
                .header(name: "X-API-Key", value: .systemdCredential("users_key")),
            ]
            try await APIClient.withClient(configuration: .init(environment: environment)) { client in
                for credential in credentials {
                    let endpoint = APIRequest(baseURL: upstream.url("/me"), credential: credential)
                    _ = try await client.fetch(endpoint, as: JSONValue.self)
                }
            }
            let requests = upstream.requests
            #expect(requests.count == 4)
            #expect(requests[0].header("Authorization") == "Bearer t0ken")
            #expect(requests[1].header("Authorization") == "Basic " + Data("ada:s3cret".utf8).base64EncodedString())
            #expect(requests[2].header("X-API-Key") == "from-file")
            #expect(requests[3].header("X-API-Key") == "from-credential")
        }
    }

    @Test("a secret that cannot be read is .credential naming its source, and no request is sent")
    func unreadableSecret() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/me", #"{"id": 1}"#)
            let client = APIClient(configuration: .init(environment: [:]))
            var errors: [APIError] = []
            for credential in [Credential.bearer(.environment("USERS_TOKEN")), .bearer(.literal(""))] {
                do {
                    let endpoint = APIRequest(baseURL: upstream.url("/me"), credential: credential)
                    _ = try await client.fetch(endpoint, as: JSONValue.self)
                } catch let error as APIError {
                    errors.append(error)
                }
            }
            try await client.shutdown()
            #expect(
                errors.map(\.description) == [
                    "the credential cannot be read: environment variable USERS_TOKEN is not set",
                    "the credential cannot be read: the literal secret is empty",
                ])
            #expect(upstream.requests.isEmpty)
        }
    }

    @Test("the method is sent as given")
    func method() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/movies", #"{"id": 3}"#)
            let endpoint = APIRequest(
                baseURL: upstream.url(""), path: "movies", method: .post, body: Data(#"{"title":"Up"}"#.utf8))
            let created = try await APIClient.withClient { client in
                try await client.fetch(endpoint, as: JSONValue.self)
            }
            #expect(created["id"]?.integerValue == 3)
            #expect(upstream.requests.map(\.method) == ["POST"])
        }
    }
}
