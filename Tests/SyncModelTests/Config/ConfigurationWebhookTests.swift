import Foundation
import SyncTesting
import Testing

@testable import SyncCore

@Suite("configuration: an endpoint's webhook")
struct ConfigurationWebhookTests {
    static func endpoint(_ webhook: String, server: String = "") -> String {
        """
        \(server)
        [[endpoint]]
        name = "users"
        url = "https://api.example.com/users"
        webhook = \(webhook)
        """
    }

    @Test("each signature reads into the model with its secret, header and tolerance; none is the default")
    func reads() throws {
        func webhook(_ text: String) throws -> SyncEndpoint.Webhook? {
            try SyncConfiguration.parse(Self.endpoint(text), sourcePath: "syncd.toml").endpoints.first?.webhook
        }
        #expect(
            try SyncConfiguration.parse(
                "[[endpoint]]\nname = \"users\"\nurl = \"https://api.example.com/users\"", sourcePath: "syncd.toml"
            ).endpoints.first?.webhook == nil)
        #expect(
            try webhook(#"{ secret_env = "GH_HOOK_SECRET", signature = "github" }"#)
                == .init(secret: .environment("GH_HOOK_SECRET"), signature: .github))
        #expect(
            try webhook(#"{ secret_file = "/etc/syncd/stripe", signature = "stripe", tolerance = "10m" }"#)
                == .init(secret: .file(path: "/etc/syncd/stripe"), signature: .stripe, tolerance: .seconds(600)))
        #expect(
            try webhook(#"{ credential = "shopify", signature = "hmac-sha256", header = "X-Shopify-Hmac-Sha256" }"#)
                == .init(
                    secret: .systemdCredential("shopify"), signature: .hmacSHA256(header: "X-Shopify-Hmac-Sha256")))
        #expect(try webhook(#"{ signature = "none" }"#) == .init(secret: nil, signature: .none))
    }

    @Test(
        "a webhook that cannot be used is refused at its line, in one sentence that names the key",
        arguments: [
            (
                #"{ secret_env = "S" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: signature must be "github", "stripe", "hmac-sha256" or "none""#
            ),
            (
                #"{ signature = "github" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: signature "github" needs exactly one of secret_env, secret_file or credential"#
            ),
            (
                #"{ signature = "github", secret_env = "A", secret_file = "/b" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: signature "github" needs exactly one of secret_env, secret_file or credential"#
            ),
            (
                #"{ signature = "none", secret_env = "A" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: signature "none" takes no secret"#
            ),
            (
                #"{ signature = "hmac-sha256", secret_env = "A" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: signature "hmac-sha256" needs "header", the header that carries it"#
            ),
            (
                #"{ signature = "hmac-sha256", secret_env = "A", header = "X Sig" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: header must be a header name"#
            ),
            (
                #"{ signature = "stripe", secret_env = "A", tolerance = "2d" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: tolerance must be between 1s and 1d"#
            ),
            (
                #"{ signature = "github", secret_env = "A", tolerance = "1m" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: unknown key "tolerance" for signature "github""#
            ),
            (
                #"{ signature = "github", secret_env = "A=B" }"#,
                #"syncd.toml:5: [[endpoint]] "users": webhook: secret_env must be the name of an environment variable"#
            ),
            (
                #""github""#,
                #"syncd.toml:5: [[endpoint]] "users": webhook must be an inline table such as { secret_env = "HOOK_SECRET", signature = "github" }"#
            ),
        ])
    func refused(text: String, problem: String) {
        #expect(configurationProblems(Self.endpoint(text)) == [problem])
    }

    @Test("signature \"none\" is taken on loopback and a Unix socket, and refused where other machines reach the API")
    func unsignedOnlyOnLoopback() throws {
        for listen in [#""127.0.0.1:8787""#, #""unix:/run/syncd/read.sock""#, #""off""#] {
            let text = Self.endpoint(#"{ signature = "none" }"#, server: "[server]\nlisten = \(listen)")
            #expect(throws: Never.self) { try SyncConfiguration.parse(text, sourcePath: "syncd.toml") }
        }
        let remote = Self.endpoint(
            #"{ signature = "none" }"#, server: "[server]\nlisten = \"0.0.0.0:8787\"\nallow_remote = true")
        #expect(
            configurationProblems(remote) == [
                #"syncd.toml:7: [[endpoint]] "users": webhook: signature "none" is only for a read API on loopback or a Unix socket; sign the hooks ("github", "stripe" or "hmac-sha256") to listen here"#
            ])
    }

    @Test("a webhook set in Swift is checked by the same rules, in the same words")
    func swiftRules() {
        var users = SyncEndpoint(name: "users", url: "https://api.example.com/users")
        users.webhook = .init(secret: nil, signature: .stripe, tolerance: .seconds(0))
        #expect(throws: SyncError.self) { try SyncConfiguration(endpoints: [users]) }
        do {
            _ = try SyncConfiguration(endpoints: [users])
        } catch {
            #expect(
                error.description
                    == #"endpoint "users": webhook: signature "stripe" needs exactly one of secret_env, secret_file or credential"#
                    + "\n" + #"endpoint "users": webhook: tolerance must be between 1s and 1d"#)
        }
    }

    @Test("parent_key is a JSON path for a child endpoint; without a parent, or not a path, it is refused")
    func parentKey() throws {
        let child = """
            [[endpoint]]
            name = "repos"
            url = "https://api.example.com/repos"
            records = "$"
            primary_key = ["full_name"]
            columns = { full_name = "full_name" }

            [[endpoint]]
            name = "issues"
            parent = "repos"
            url = "https://api.example.com/repos/{parent.full_name:path}/issues"
            records = "$"
            primary_key = ["id"]
            columns = { id = { path = "id", type = "integer" } }
            webhook = { secret_env = "S", signature = "github", parent_key = "repository.full_name" }
            """
        let configuration = try SyncConfiguration.parse(child, sourcePath: "syncd.toml")
        #expect(configuration.endpoint(named: "issues")?.webhook?.parentKey == "repository.full_name")
        #expect(
            configurationProblems(Self.endpoint(#"{ secret_env = "S", signature = "github", parent_key = "a.b" }"#))
                == [#"syncd.toml:5: [[endpoint]] "users": webhook: parent_key is for an endpoint with a "parent""#])
        let problems = configurationProblems(
            child.replacingOccurrences(of: #"parent_key = "repository.full_name""#, with: #"parent_key = "a..b""#))
        #expect(
            problems.count == 1
                && problems[0].hasPrefix(#"syncd.toml:15: [[endpoint]] "issues": webhook: parent_key: "#), "\(problems)"
        )
    }
}
