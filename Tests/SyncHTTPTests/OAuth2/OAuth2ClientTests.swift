import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// The library's one-off fetch with `Credential.oauth2`: the same tokens as the engine's, shared by every request of
/// one ``APIClient``, renewed once on a 401, and a refusal as an ``APIError`` in one sentence.
@Suite("OAuth2: APIClient requests")
struct OAuth2ClientTests {
    struct User: Decodable { var id: Int }

    static func request(_ upstream: OAuth2Upstream, secret: String? = nil) -> APIRequest {
        APIRequest(
            baseURL: upstream.server.baseURL, path: "/api/users",
            credential: .oauth2(
                tokenURL: upstream.tokenURL, clientID: upstream.clientID,
                clientSecret: .literal(secret ?? upstream.clientSecret), clientAuthentication: .post))
    }

    @Test("requests share one token, and a 401 renews it once")
    func sharedAndRenewed() async throws {
        let upstream = try await OAuth2Upstream.start()
        let state = try TemporaryDirectory()
        try await APIClient.withClient(configuration: .init(stateDirectory: state.path)) { client async throws in
            #expect(try await client.fetch(Self.request(upstream), as: [User].self).map(\.id) == [1, 2])
            #expect(try await client.fetch(Self.request(upstream), as: [User].self).count == 2)
            upstream.revokeAccessTokens()
            #expect(try await client.fetch(Self.request(upstream), as: [User].self).count == 2)
        }
        #expect(upstream.ledger.tokenRequests == 2)
        #expect(upstream.ledger.apiAuthorizations == ["Bearer at-1", "Bearer at-1", "Bearer at-1", "Bearer at-2"])
        #expect(upstream.ledger.tokenBodies.first?.contains("client_secret=client-s3cret-value") == true)
        try await upstream.shutdown()
    }

    @Test("SyncCache.fetch of an OAuth2 request uses the token of the cache's client, and keeps the answer")
    func cacheFetch() async throws {
        let upstream = try await OAuth2Upstream.start()
        let directory = try TemporaryDirectory()
        let cache = try SyncCache(path: directory.file("cache.db"), environment: [:])
        let users = Resource(request: Self.request(upstream), as: [User].self)
        let answer = try await cache.fetch(users, environment: [:])
        #expect(answer.value.map(\.id) == [1, 2] && answer.source == .network)
        upstream.revokeAccessTokens()
        #expect(try await cache.fetch(users, environment: [:]).source == .network)
        try await cache.shutdown()
        #expect(upstream.ledger.apiAuthorizations == ["Bearer at-1", "Bearer at-1", "Bearer at-2"])
        try await upstream.shutdown()
    }

    @Test("a refused client is a credential error in one sentence, without the secret")
    func refused() async throws {
        let upstream = try await OAuth2Upstream.start()
        let error = await #expect(throws: APIError.credential) {
            try await APIClient.withClient { client in
                try await client.response(for: Self.request(upstream, secret: "not-the-secret"))
            }
        }
        #expect(
            error?.description
                == "the credential cannot be read: no OAuth2 access token: the token endpoint refused the request "
                + "(401): invalid_client; check client_id and the client secret")
        #expect(upstream.ledger.apiRequests == 0)
        try await upstream.shutdown()
    }
}
