import Testing

@testable import SyncCore
@testable import SyncInfer
@testable import SyncSupport

/// Text from a sample in what `syncd infer` prints: control characters and bidirectional controls escaped in TOML
/// strings, TOML comments, Swift literals and Swift comments; a URL's secrets kept out of the stanza.
@Suite("Hostile text in inferred stanzas and models")
struct HostileTextTests {
    @Test(
        "TOML strings escape every control TOML forbids, C1 and bidi controls; other text stays",
        arguments: [
            ("a\u{1B}[2J", #""a\u001B[2J""#),
            ("tab\tand\nline\r", #""tab\tand\nline\r""#),
            ("\u{0}\u{7F}\u{9B}", #""\u0000\u007F\u009B""#),
            ("\u{202E}exe.pdf\u{2066}", #""\u202Eexe.pdf\u2066""#),
            ("quote \" back \\ é 日本 \u{200F}", #""quote \" back \\ é 日本 "# + "\u{200F}\""),
        ])
    func tomlStrings(text: String, quoted: String) {
        #expect(EndpointStanza.quoted(text) == quoted)
    }

    @Test("Swift literals escape control characters and bidi controls")
    func swiftLiterals() {
        #expect(SwiftNaming.literal("a\u{1B}[2J\n\u{9B}\u{202E}\"") == #""a\u{1b}[2J\u{a}\u{9b}\u{202e}\"""#)
    }

    @Test("a key with a line break cannot end a comment: the stanza's and the models' comments escape it")
    func comments() throws {
        // Past 40 columns, the key is named in the "Left out" comment; the records path, in the models' header.
        let fields = (0..<40).map { "\"f\($0)\": 1" } + [#""x\n[[endpoint]]\u202e": 1"#]
        let body = #"{"r\n\u001b[2J": [{"# + fields.joined(separator: ", ") + "}]}"
        let (endpoint, shapes) = try EndpointInference(name: "items", url: "https://example.com/items")
            .infer(Array(body.utf8))
        let stanza = EndpointStanza.render(endpoint)
        #expect(stanza.hasPrefix(#"# 1 record at "[\"r\n\u001B[2J\"]": every one was read"#))
        #expect(
            stanza.hasSuffix(
                #"# Left out past 40 columns: ["x\u000a[[endpoint]]\u202e"]. The whole record stays in _raw."# + "\n"))
        #expect(!stanza.unicodeScalars.contains { $0 != "\n" && ControlCharacters.needsEscape($0, .code) })
        let swift = SwiftModelWriter.render(shapes, endpoint: endpoint)
        #expect(
            swift.contains(
                #"// The records are the array at "["r\u000a\u001b[2J"]" in the response (1 record read)."# + "\n"))
        #expect(swift.contains(#"    case xEndpoint = "x\u{a}[[endpoint]]\u{202e}""# + "\n"))
        #expect(!swift.unicodeScalars.contains { $0 != "\n" && ControlCharacters.needsEscape($0, .code) })
    }

    @Test(
        "a URL's secret query parameters leave the url; the first becomes the query auth",
        arguments: [
            (
                "https://e.com/u?api_key=s1&page=2", "https://e.com/u?page=2", "api_key", "USERS_API_KEY", [String](),
                false
            ),
            ("https://e.com/u?page=2", "https://e.com/u?page=2", nil, nil, [], false),
            ("https://e.com/u?access_token=s1", "https://e.com/u", "access_token", "USERS_ACCESS_TOKEN", [], false),
            (
                "https://e.com/u?X-Amz-Signature=s1&token=s2&a=1", "https://e.com/u?a=1", "X-Amz-Signature",
                "USERS_X_AMZ_SIGNATURE", ["token"], false
            ),
            ("https://e.com/u?api%5Fkey=s1", "https://e.com/u", "api_key", "USERS_API_KEY", [], false),
            (
                "https://me:pw@e.com/u?a=1;secret=s1#token=s2",
                "https://REDACTED@e.com/u?a=1;secret=REDACTED#token=REDACTED",
                nil, nil, [], true
            ),
        ] as [(String, String, String?, String?, [String], Bool)])
    func secrets(url: String, shown: String, name: String?, environment: String?, dropped: [String], redacted: Bool) {
        let secrets = URLSecrets(url: url, endpoint: "users")
        #expect(secrets.url == shown)
        #expect(secrets.auth?.name == name)
        #expect(secrets.auth?.environment == environment)
        #expect(secrets.dropped == dropped)
        #expect(secrets.isRedacted == redacted)
    }

    @Test("the stanza sends a secret query parameter with auth, says what to set, and never holds the secret")
    func secretStanza() throws {
        let body = #"{"data": [{"id": 1}]}"#
        let url = "https://example.com/v1/users?api_key=s3cr3t&limit=10&signature=s1gn"
        let endpoint = try EndpointInference(name: "users", url: url).infer(Array(body.utf8)).endpoint
        let stanza = EndpointStanza.render(endpoint)
        #expect(!stanza.contains("s3cr3t") && !stanza.contains("s1gn"))
        #expect(
            stanza.contains(
                """
                url = "https://example.com/v1/users?limit=10"
                # TODO: the URL's "signature" is a secret too, left out of url (auth sends one parameter): check whether \
                the API
                # needs it.
                # The URL's "api_key" is a secret, left out of url: auth sends it from the environment variable \
                USERS_API_KEY, which
                # must be set where syncd runs.
                auth = { type = "query", name = "api_key", value_env = "USERS_API_KEY" }
                records = "data"

                """))
    }
}
