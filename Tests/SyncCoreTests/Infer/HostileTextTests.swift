import Testing

@testable import SyncCore
@testable import SyncInfer

/// Text from a sample in what `syncd infer` prints: control characters and bidirectional controls escaped in TOML
/// strings, TOML comments, Swift literals and Swift comments.
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
        #expect(swift.contains(#"// The 1 records are the array at "["r\u000a\u001b[2J"]" in the response."# + "\n"))
        #expect(swift.contains(#"    case xEndpoint = "x\u{a}[[endpoint]]\u{202e}""# + "\n"))
        #expect(!swift.unicodeScalars.contains { $0 != "\n" && ControlCharacters.needsEscape($0, .code) })
    }
}
