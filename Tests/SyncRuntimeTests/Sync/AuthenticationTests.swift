import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// Each kind of credentials reaches the upstream as it should, from each kind of secret source, and the secret
/// is found nowhere syncd writes.
@Suite("sync: authentication")
struct AuthenticationTests {
    static let secret = "s3cr3t+value/ä"

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case bearerEnv, bearerFile, bearerCredential, basic, header, query
        var testDescription: String { rawValue }
    }

    static func auth(_ kind: Kind, directory: TemporaryDirectory) throws -> String {
        switch kind {
        case .bearerEnv: return #"{ type = "bearer", token_env = "API_TOKEN" }"#
        case .bearerFile:
            try (secret + "\n").write(toFile: directory.file("token"), atomically: true, encoding: .utf8)
            return #"{ type = "bearer", token_file = "\#(directory.file("token"))" }"#
        case .bearerCredential:
            try FileManager.default.createDirectory(
                atPath: directory.file("credentials"), withIntermediateDirectories: true)
            try secret.write(toFile: directory.file("credentials/api-token"), atomically: true, encoding: .utf8)
            return #"{ type = "bearer", credential = "api-token" }"#
        case .basic: return #"{ type = "basic", username = "ann", password_env = "API_TOKEN" }"#
        case .header: return #"{ type = "header", name = "X-Api-Key", value_env = "API_TOKEN" }"#
        case .query: return #"{ type = "query", name = "api_key", value_env = "API_TOKEN" }"#
        }
    }

    @Test("credentials are sent, and the secret is in no run, error, state or log line", arguments: Kind.allCases)
    func credentials(_ kind: Kind) async throws {
        try await withTestUpstream { upstream in
            upstream.set("/users", .json(Array("{}".utf8), status: 401))
            let secrets = try TemporaryDirectory()
            var fixture = try SyncFixture(
                toml: """
                    [[endpoint]]
                    name = "users"
                    url = "\(upstream.url("/users"))"
                    records = "$"
                    primary_key = ["id"]
                    auth = \(try Self.auth(kind, directory: secrets))

                    [endpoint.columns]
                    id = { path = "id", type = "integer" }
                    """)
            fixture.environment = ["API_TOKEN": Self.secret, "CREDENTIALS_DIRECTORY": secrets.file("credentials")]

            let report = try await fixture.sync("users")

            let request = try #require(upstream.requests.last)
            switch kind {
            case .bearerEnv, .bearerFile, .bearerCredential:
                #expect(request.header("Authorization") == "Bearer \(Self.secret)")
            case .basic:
                #expect(
                    request.header("Authorization") == "Basic " + Data("ann:\(Self.secret)".utf8).base64EncodedString())
            case .header:
                #expect(request.header("X-Api-Key") == Self.secret)
            case .query:
                #expect(request.query["api_key"] == Self.secret)
            }
            let kindName = kind == .basic ? "basic" : kind == .header ? "header" : kind == .query ? "query" : "bearer"
            #expect(
                report.error
                    == "users: HTTP 401 Unauthorized: the upstream refused the \(kindName) credentials; kept the stored data"
            )
            var stored = ""
            for table in ["syncd_runs", "syncd_errors", "syncd_endpoints"] {
                stored += try fixture.rows("SELECT * FROM \(table)").map { "\($0.values)" }.joined()
            }
            #expect(!stored.contains("s3cr3t"))
            let files = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path)
            for file in files where file.hasPrefix("cache.db") {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.directory.file(file)))
                #expect(bytes.range(of: Data("s3cr3t".utf8)) == nil, "\(file)")
            }
        }
    }

    @Test("a secret that cannot be read fails the run naming its source, not its value")
    func missingSecret() async throws {
        try await withTestUpstream { upstream in
            var fixture = try SyncFixture(
                toml: """
                    [[endpoint]]
                    name = "users"
                    url = "\(upstream.url("/users"))"
                    records = "$"
                    primary_key = ["id"]
                    auth = { type = "bearer", token_env = "MISSING_TOKEN" }

                    [endpoint.columns]
                    id = { path = "id", type = "integer" }
                    """)
            fixture.environment = [:]
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(report.error?.hasPrefix("users: ") == true)
            #expect(report.error?.contains("MISSING_TOKEN") == true)
            #expect(upstream.requests.isEmpty)
        }
    }
}
