import Foundation
import SyncTesting
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
            try SyncConfiguration.parse(text, sourcePath: "syncd.toml")
        }
        #expect(error.code == .syntax)
        #expect(error.description == #"syncd.toml:3:13: invalid TOML: expected a value, found the end of the file"#)
    }

    @Test("a key defined twice is a syntax error on the second line, naming the first")
    func duplicateKey() {
        #expect(
            configurationProblems("[server]\nlisten = \"off\"\nlisten = \"off\"\n") == [
                "syncd.toml:3:1: invalid TOML: the key \"listen\" is already defined at line 2"
            ]
        )
    }

    @Test(
        "malformed documents are refused with one sentence at their line and column",
        arguments: [
            // Each of these once tripped an assertion in toml++, the C++ reader syncd used before its own.
            (
                "[server]\n[  # comment\n",
                "syncd.toml:2:4: invalid TOML: a table header needs a name, such as [server] or [[endpoint]]"
            ),
            ("[\n", "syncd.toml:1:2: invalid TOML: a table header needs a name, such as [server] or [[endpoint]]"),
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
                "syncd.toml:3:3: invalid TOML: expected a value, found '}'"
            ),
            ("a = [ { b = [ } ] } ]\n", "syncd.toml:1:15: invalid TOML: expected a value, found '}'"),
            ("[defaults]\ninterval = 5m\n", "syncd.toml:2:12: invalid TOML: \(notAValue("5m"))"),
            (
                "a = 1979-05-27Tx7:32:00\n",
                "syncd.toml:1:5: invalid TOML: \"1979-05-27Tx7:32:00\" is not a valid date or time"
            ),
            ("a = 1979-02-29\n", "syncd.toml:1:5: invalid TOML: \"1979-02-29\" is not a valid date or time"),
            ("a = 01\n", "syncd.toml:1:5: invalid TOML: \(notAValue("01"))"),
            ("a = 1__0\n", "syncd.toml:1:5: invalid TOML: \(notAValue("1__0"))"),
            (
                "a = 9223372036854775808\n",
                "syncd.toml:1:5: invalid TOML: the integer \"9223372036854775808\" is out of range: integers are 64-bit, "
                    + "from -9223372036854775808 to 9223372036854775807"
            ),
            (
                "data = 1[\"-----Aa 8 1[-\n",
                "syncd.toml:1:9: invalid TOML: expected the end of the line after a value, found '['"
            ),
            (
                "a = [1{b = 2}]\n",
                "syncd.toml:1:7: invalid TOML: expected ',' or ']' after a value in an array, found '{'"
            ),
            (
                "a = \"x\u{1B}[31m\"\n",
                "syncd.toml:1:7: invalid TOML: a string cannot hold control character U+001B: write it as an escape"
            ),
            (
                "a = \"\\q\"\n",
                #"syncd.toml:1:6: invalid TOML: unknown escape \q: a string takes \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX"#
            ),
            (
                "a = { b = 1,\n c = 2 }\n",
                "syncd.toml:1:13: invalid TOML: expected a key, such as name = \"value\", found the end of the line"
            ),
            ("[a]\nx = 1\n[a]\n", "syncd.toml:3:1: invalid TOML: the table [a] is already defined at line 1"),
            (
                "a = \"never closed\n",
                "syncd.toml:1:18: invalid TOML: the string is not closed on its line: close it with '\"', or use \"\"\" for several lines"
            ),
            (
                "a = \"\"\"\nnever closed\n",
                "syncd.toml:1:5: invalid TOML: the string is not closed before the end of the file"
            ),
        ]
    )
    func malformed(text: String, message: String) {
        #expect(configurationProblems(text) == [message])
    }

    static func notAValue(_ token: String) -> String {
        "\"\(token)\" is not a TOML value: text needs quotes, as in \"5m\"; a value is a string, a number, true, false, "
            + "a date, an array or an inline table"
    }

    @Test("values nested past the reader's limit are refused, not a stack overflow")
    func deepNesting() {
        let arrays = "a = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        #expect(
            configurationProblems(arrays) == ["syncd.toml:1:69: invalid TOML: values nest more than 64 levels deep"])
        let tables = "[" + Array(repeating: "t", count: 10_000).joined(separator: ".") + "]\n"
        #expect(configurationProblems(tables) == ["syncd.toml:1:1: invalid TOML: tables nest more than 64 levels deep"])
        let inline = "a = " + String(repeating: "{ b = ", count: 1000) + "1" + String(repeating: " }", count: 1000)
        #expect(configurationProblems(inline).first?.hasSuffix("values nest more than 64 levels deep") == true)
    }

    @Test("a configuration path to a device, such as an endless /dev/zero, is refused without reading it")
    func endlessConfigurationFile() throws {
        let error = try #require(throws: ConfigurationError.self) { try SyncConfiguration.load(path: "/dev/zero") }
        #expect(error.code == .unreadable)
        #expect(error.description == "/dev/zero: is a device, not a regular file")
    }

    @Test("a configuration path to a FIFO is refused at once, not waited on for a writer")
    func fifoConfigurationFile() throws {
        try withTemporaryDirectory { directory in
            let fifo = directory + "/syncd.toml"
            #expect(mkfifo(fifo, 0o600) == 0)
            let error = try #require(throws: ConfigurationError.self) { try SyncConfiguration.load(path: fifo) }
            #expect(error.description == "\(fifo): is a FIFO, not a regular file")
        }
    }

    @Test("a file larger than 4 MiB is not read as a configuration")
    func tooLarge() {
        let text = "# " + String(repeating: "x", count: 4 << 20) + "\n"
        #expect(configurationProblems(text) == ["syncd.toml: the file is larger than 4 MiB: is it the configuration?"])
    }

    @Test("booleans and decimal numbers in every TOML form are read")
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
        let configuration = try SyncConfiguration.parse(text, sourcePath: "syncd.toml")
        #expect(configuration.plans.first?.headers.map(\.value) == ["[ }", "{ ]"])
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
            let configuration = try SyncConfiguration.load(path: path)
            #expect(configuration.sourcePath == path)
            #expect(configuration.databasePath == directory + "/cache.db")

            _ = try writeFile("databse = 1\n", named: "bad.toml", in: directory)
            let error = try #require(throws: ConfigurationError.self) {
                try SyncConfiguration.load(path: directory + "/./bad.toml")
            }
            #expect(error.code == .invalid)
            #expect(error.description == directory + "/./bad.toml:1: unknown key \"databse\"")
        }
    }

    @Test("a missing file is one sentence naming it")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/syncd.toml"
            let error = try #require(throws: ConfigurationError.self) { try SyncConfiguration.load(path: path) }
            #expect(error.code == .fileNotFound)
            #expect(error.description == "\(path): no such file")
            let nested = try #require(throws: ConfigurationError.self) {
                try SyncConfiguration.load(path: directory + "/missing/syncd.toml")
            }
            #expect(nested.description == "\(directory)/missing/syncd.toml: no such file")
        }
    }

    @Test("an unreadable file is one sentence naming it")
    func unreadableFile() throws {
        try withTemporaryDirectory { directory in
            let error = try #require(throws: ConfigurationError.self) { try SyncConfiguration.load(path: directory) }
            #expect(error.code == .unreadable)
            #expect(error.description == "\(directory): is a directory, not a file")

            let path = directory + "/latin1.toml"
            try Data([0x61, 0x20, 0x3D, 0x20, 0x22, 0xE9, 0x22, 0x0A]).write(to: URL(fileURLWithPath: path))
            let latin1 = try #require(throws: ConfigurationError.self) { try SyncConfiguration.load(path: path) }
            #expect(latin1.code == .unreadable)
            #expect(latin1.description == "\(path): is not UTF-8 text")
        }
    }
}
