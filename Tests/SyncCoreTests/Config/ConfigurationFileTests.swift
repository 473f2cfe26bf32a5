import Foundation
import Testing

@testable import SyncCore

@Suite("Loading the file: missing, unreadable, not TOML")
struct ConfigurationFileTests {
    @Test("a TOML syntax error gives its line and column")
    func syntaxError() throws {
        let text = """
            [server]
            listen = "127.0.0.1:8787"
            token_file =
            """
        let error = try #require(throws: ConfigurationError.self) {
            try Configuration.parse(text, sourcePath: "syncd.toml")
        }
        #expect(error.code == .syntax)
        #expect(
            error.description
                == #"syncd.toml:3:13: invalid TOML: error while parsing key-value pair: encountered end-of-file"#)
    }

    @Test("a key defined twice is a syntax error on the second line")
    func duplicateKey() {
        #expect(
            configurationProblems("[server]\nlisten = \"off\"\nlisten = \"off\"\n") == [
                "syncd.toml:3:10: invalid TOML: error while parsing key-value pair: cannot redefine existing string 'listen'"
            ]
        )
    }

    @Test(
        "malformed documents that would trip toml++'s assertions are refused first",
        arguments: [
            (
                "[server]\n[  # comment\n",
                "syncd.toml:2:4: invalid TOML: a table header needs a name, such as [server] or [[endpoint]]"
            ),
            ("[\n", "syncd.toml:1:2: invalid TOML: a table header needs a name, such as [server] or [[endpoint]]"),
            // Found by the config fuzz target (Fuzz/corpus/config/regression-bom-header).
            (
                "\u{FEFF}[=",
                "syncd.toml:1:2: invalid TOML: a table header needs a name, such as [server] or [[endpoint]]"
            ),
            (
                "[[ [x]]]\n",
                "syncd.toml:1:4: invalid TOML: a table header needs a name, such as [server] or [[endpoint]]"
            ),
            (
                "a = [\n  1,\n  } { b = 1 },\n]\n",
                "syncd.toml:3:3: invalid TOML: expected a value or ']' in an array, saw '}'"
            ),
            ("a = [ { b = [ } ] } ]\n", "syncd.toml:1:15: invalid TOML: expected a value or ']' in an array, saw '}'"),
            ("[defaults]\ninterval = 5m\n", "syncd.toml:2:12: invalid TOML: \(bareValue)"),
            ("a = 1979-05-27Tx7:32:00\n", "syncd.toml:1:5: invalid TOML: \(bareValue)"),
            ("a = 1979-05-27\n", "syncd.toml:1:5: invalid TOML: \(bareValue)"),
            ("a = [1, 0x10]\n", "syncd.toml:1:9: invalid TOML: \(bareValue)"),
            ("a = { b = inf }\n", "syncd.toml:1:11: invalid TOML: \(bareValue)"),
            ("a = 01\n", "syncd.toml:1:5: invalid TOML: \(bareValue)"),
            ("a = 1__0\n", "syncd.toml:1:5: invalid TOML: \(bareValue)"),
            // Found by the config fuzz target (Fuzz/corpus/config/regression-unseparated-value).
            (
                "data = 1[\"-----Aa 8 1[-\n",
                "syncd.toml:1:9: invalid TOML: expected a space, ',', ']' or '}' after a value"
            ),
            ("a = [1{b = 2}]\n", "syncd.toml:1:7: invalid TOML: expected a space, ',', ']' or '}' after a value"),
        ]
    )
    func refusedBeforeTOMLKit(text: String, message: String) {
        #expect(configurationProblems(text) == [message])
    }

    static let bareValue = #"a bare value must be true, false or a decimal number: quote text, as in "5m""#

    @Test("booleans and decimal numbers in every TOML form pass the check before TOMLKit")
    func plainValues() {
        let text = """
            [defaults]
            jitter = 5e-1
            max_body = 1_048_576
            strict = true
            allow_empty = false
            [[endpoint]]
            name = "a"
            url = "https://example.com"
            headers = { "X-A" = "1", X-B = "2" }
            auth = { type = "bearer", token_env = "T" }
            primary_key = ["id",
                "b"]
            list = [+1, -0, 0.5, 1E+3, 3.141_592, -2.5e-3, [true, false]]
            """
        #expect(
            configurationProblems(text) == [
                #"syncd.toml:11: [[endpoint]] "a": a document endpoint (no "records") takes no "primary_key""#,
                #"syncd.toml:13: [[endpoint]] "a": unknown key "list""#,
            ]
        )
    }

    @Test("brackets and braces inside strings and comments are not syntax")
    func bracketsInStrings() throws {
        let text = """
            [server]   # [ not a header
            listen = "off" # }
            [[endpoint]]
            name = "a"
            url = "https://example.com/}]"
            headers = { "X-A" = "[ }", 'X-B' = '{ ]' }
            """
        let configuration = try Configuration.parse(text, sourcePath: "syncd.toml")
        #expect(configuration.endpoints.first?.headers.map(\.value) == ["[ }", "{ ]"])
    }

    @Test("a NUL byte is refused with its line")
    func nulByte() {
        #expect(
            configurationProblems("[server]\nlisten = \"o\u{0}ff\"\n") == ["syncd.toml:2: the file holds a NUL byte"])
    }

    @Test("load reads the file and names it as given")
    func loadsAFile() throws {
        try withTemporaryDirectory { directory in
            let path = try writeFile("database = \"cache.db\"\n", named: "syncd.toml", in: directory)
            let configuration = try Configuration.load(path: path)
            #expect(configuration.sourcePath == path)
            #expect(configuration.database == directory + "/cache.db")

            _ = try writeFile("databse = 1\n", named: "bad.toml", in: directory)
            let error = try #require(throws: ConfigurationError.self) {
                try Configuration.load(path: directory + "/./bad.toml")
            }
            #expect(error.code == .invalid)
            #expect(error.description == directory + "/./bad.toml:1: unknown key \"databse\"")
        }
    }

    @Test("a missing file is one sentence naming it")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/syncd.toml"
            let error = try #require(throws: ConfigurationError.self) { try Configuration.load(path: path) }
            #expect(error.code == .fileNotFound)
            #expect(error.description == "\(path): no such file")
            let nested = try #require(throws: ConfigurationError.self) {
                try Configuration.load(path: directory + "/missing/syncd.toml")
            }
            #expect(nested.description == "\(directory)/missing/syncd.toml: no such file")
        }
    }

    @Test("an unreadable file is one sentence naming it")
    func unreadableFile() throws {
        try withTemporaryDirectory { directory in
            let error = try #require(throws: ConfigurationError.self) { try Configuration.load(path: directory) }
            #expect(error.code == .unreadable)
            #expect(error.description == "\(directory): is a directory, not a file")

            let path = directory + "/latin1.toml"
            try Data([0x61, 0x20, 0x3D, 0x20, 0x22, 0xE9, 0x22, 0x0A]).write(to: URL(fileURLWithPath: path))
            let latin1 = try #require(throws: ConfigurationError.self) { try Configuration.load(path: path) }
            #expect(latin1.code == .unreadable)
            #expect(latin1.description == "\(path): is not UTF-8 text")
        }
    }
}
