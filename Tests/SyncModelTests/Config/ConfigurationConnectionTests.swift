import SyncTesting
import Testing

@testable import SyncCore

/// `proxy`, `proxy_auth` and the TLS keys, in `[defaults]` and `[[endpoint]]`, read into the model and refused in
/// one sentence at their line.
@Suite("configuration: proxies and TLS")
struct ConfigurationConnectionTests {
    static func endpoint(_ name: String, _ lines: String = "") -> String {
        """

        [[endpoint]]
        name = "\(name)"
        url = "https://\(name).example/"
        \(lines)
        """
    }

    @Test(
        "[defaults] sets the proxy and its credentials; an endpoint replaces the URL, keeps the credentials, or goes direct"
    )
    func layering() throws {
        let text = """
            [defaults]
            proxy = "http://proxy.corp:3128"
            proxy_auth = { type = "basic", username = "syncd", password_file = "/etc/syncd/proxy.pass" }
            client_certificate_credential = "client.pem"
            client_key_credential = "client.key"
            """
            + Self.endpoint("a") + Self.endpoint("b", "proxy = \"http://other.corp:8080\"")
            + Self.endpoint("c", "proxy = \"\"")
        let configuration = try SyncConfiguration.parse(text, sourcePath: "/etc/syncd/syncd.toml")
        let authorization = Credential.basic(username: "syncd", password: .file(path: "/etc/syncd/proxy.pass"))
        let a = try #require(configuration.plan(named: "a"))
        #expect(a.proxy == .url("http://proxy.corp:3128", authorization: authorization))
        #expect(
            a.tls
                == TLSSettings(
                    clientCertificate: .systemdCredential("client.pem"), clientKey: .systemdCredential("client.key")))
        #expect(
            configuration.plan(named: "b")?.proxy == .url("http://other.corp:8080", authorization: authorization))
        var direct = HTTPProxy.direct
        direct.authorization = authorization
        #expect(configuration.plan(named: "c")?.proxy == direct)
    }

    @Test(
        "each unusable key is refused in one sentence at its line",
        arguments: [
            ("proxy = 3128", "proxy must be a string: an http://host:port URL, or \"\" for none"),
            ("proxy = \"http://proxy.corp\"", "proxy needs a port from 1 to 65535, such as \"http://proxy.corp:3128\""),
            (
                "proxy = \"http://u:secret@proxy.corp:3128\"",
                "proxy must not hold credentials: put them in proxy_auth, from a secret source"
            ),
            (
                "proxy_auth = { type = \"basic\", username = \"u\" }",
                "proxy_auth needs type = \"basic\", username and exactly one of password_env, password_file or credential"
            ),
            (
                "proxy_auth = { type = \"basic\", username = \"u\", password_env = \"P\", realm = \"x\" }",
                "proxy_auth: unknown key \"realm\""
            ),
            (
                "proxy_auth = { type = \"basic\", username = \"u:v\", password_env = \"P\" }",
                "proxy_auth: username must not contain \":\""
            ),
            ("ca_only = 1", "ca_only must be true or false"),
            (
                "client_key_credential = \"../key\"",
                "client_key_credential must be a file name in $CREDENTIALS_DIRECTORY (LoadCredential=)"
            ),
        ])
    func refused(line: String, message: String) {
        #expect(
            configurationProblems(Self.endpoint("a", "retries = 1\n" + line))
                == ["syncd.toml:6: [[endpoint]] \"a\": \(message)"])
    }

    @Test(
        "settings that need another are refused at the endpoint",
        arguments: [
            ("proxy_auth = { type = \"basic\", username = \"u\", password_env = \"P\" }", "proxy_auth needs proxy"),
            ("ca_only = true", "ca_only needs ca_file: it would trust no server at all"),
            (
                "client_certificate_credential = \"c.pem\"",
                "client_certificate_file needs client_key_file (or client_key_credential)"
            ),
            (
                "client_key_credential = \"k.pem\"",
                "client_key_file needs client_certificate_file (or client_certificate_credential)"
            ),
        ])
    func incomplete(line: String, message: String) {
        let problems = configurationProblems(Self.endpoint("a", line))
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("syncd.toml:2: [[endpoint]] \"a\": \(message)") == true, "\(problems)")
    }

    @Test("a SyncEndpoint built in Swift is checked by the same rules")
    func swiftEndpoint() {
        var endpoint = SyncEndpoint(name: "a", url: "https://a.example/")
        endpoint.proxy = .url("socks5://proxy.corp:1080", authorization: .bearer(.environment("T")))
        endpoint.tls = TLSSettings(caFile: "relative.pem", clientKey: .file(path: "/k.pem"))
        var problems: [String] = []
        #expect(endpoint.compile(into: &problems) == nil)
        #expect(
            problems == [
                "proxy must be an http:// URL such as \"http://proxy.corp:3128\" (https:// and SOCKS proxies are not supported)",
                "proxy_auth: type must be \"basic\"",
                "ca_file must be an absolute path",
                "client_key_file needs client_certificate_file (or client_certificate_credential)",
            ])
    }
}
