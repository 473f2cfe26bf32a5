import Foundation
import SyncTesting
import Testing

@testable import SyncCore

/// TOMLReader against Python's tomllib on hand-picked documents from every corner of TOML 1.0, and on thousands of
/// generated and mutated ones (seeded, so every run reads the same documents).
@Suite(
    "TOMLReader agrees with Python's tomllib",
    .enabled(if: TOMLOracle.isAvailable || ProcessInfo.processInfo.environment["CI"] != nil)
)
struct TOMLConformanceTests {
    /// Documents that are TOML 1.0.
    static let valid = [
        "", "\n\n# only a comment\n", "a = 1", "a = 1 # comment\r\nb = 2\r\n", "\u{FEFF}a = 1\n",
        // Keys.
        "bare_key-1 = 1\n\"quoted key\" = 2\n'literal key' = 3\n\"\" = 4\n1234 = 5\n",
        "a.b.c = 1\na . b . d = 2\n\"x.y\".z = 3\n'q'.\"r\" = 4\n", "3.14159 = \"pi\"\n", "true = 1\ninf = 2\n",
        "\"\\u00e9t\" = 1\n",
        // Strings.
        #"a = "tab\there \"quoted\" \\ \u00E9 \U0001F600 \b\f\n\r""#,
        "a = 'C:\\\\path\\\\no escapes'\n", "a = \"\"\"\nfirst line trimmed\nsecond\"\"\"\n",
        "a = \"\"\"one \\\n    two \\\n\n   three\"\"\"\n", "a = \"\"\"quotes \"\" inside and at the end\"\"\"\"\"\n",
        "a = '''\nraw \\n ''single'' quotes'''''\n", "a = \"\"\"\"\"\"\n", "a = ''''''\n", "a = \"\"\"\\\n\"\"\"\n",
        "a = \"tab\tinside\"\n", "a = \"\"\"line\r\nends\"\"\"\n", "a = \"\"\"x\\   \n  y\"\"\"\n",
        // Integers.
        "a = +99\nb = 42\nc = 0\nd = -17\ne = 1_000\nf = 5_349_221\ng = +0\nh = -0\n",
        "a = 0xDEADBEEF\nb = 0xdead_beef\nc = 0o01234567\nd = 0o755\ne = 0b11010110\nf = 0x00\n",
        "a = 9223372036854775807\nb = -9223372036854775808\nc = 0x7FFFFFFFFFFFFFFF\n",
        // Floats.
        "a = +1.0\nb = 3.1415\nc = -0.01\nd = 5e+22\ne = 1e06\nf = -2E-2\ng = 6.626e-34\nh = 224_617.445_991_228\n",
        "a = inf\nb = +inf\nc = -inf\nd = nan\ne = +nan\nf = -nan\ng = -0.0\nh = +0.0\ni = 0e0\n",
        // Booleans, dates and times.
        "a = true\nb = false\n",
        "a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00-07:00\nc = 1979-05-27T00:32:00.999999-07:00\n",
        "a = 1979-05-27 07:32:00Z\nb = 1979-05-27T07:32:00\nc = 1979-05-27\nd = 07:32:00\ne = 00:32:00.999\n",
        "a = 2000-02-29\nb = 1979-05-27t07:32:00z\nc = 1990-12-31T23:59:59Z\n",
        // Arrays.
        "a = []\nb = [1, 2, 3]\nc = [\"x\", 'y', \"\"\"z\"\"\"]\nd = [[1, 2], [\"a\", 1.5]]\ne = [1, \"mixed\", true]\n",
        "a = [\n  1,\n  2, # comment\n\n  3,\n]\n", "a = [ { x = 1 }, { y = [ 2 ] } ]\n", "a = [\n]\n",
        "a = [ # c\n 1 # d\n , # e\n 2 ]\n",
        // Inline tables.
        "a = {}\nb = { x = 1, y = \"two\" }\nc = { d.e = 1, d.f = 2 }\nf = { g = { h = [1] } }\n",
        "a = { x = [\n 1,\n 2\n] }\n",
        // Tables.
        "[a]\nx = 1\n[b]\n[c.d]\ny = 2\n", "[ a . \"b c\" . 'd' ]\nx = 1\n", "[a.b.c]\n[a]\nx = 1\n",
        "[a]\nb.c = 1\n[a.b.d]\ne = 2\n",
        "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n",
        "[[a]]\nx = 1\n[[a]]\nx = 2\n[[a.b]]\ny = 3\n[a.c]\nz = 4\n",
        "[[fruits]]\nname = \"apple\"\n[fruits.physical]\ncolor = \"red\"\n[[fruits.varieties]]\nname = \"red delicious\"\n[[fruits]]\nname = \"banana\"\n[[fruits.varieties]]\nname = \"plantain\"\n",
        "x.y = 1\n[a]\n", "[a]\n[b]\n[a.c]\n", "[a.b]\n[a.c]\n", "[[a]]\n[[a]]\n[a.b]\n[[a.c]]\n",
        "\"a\" = 1\n[\"b\"]\n['c'.d]\n",
    ]

    /// Documents that are not.
    static let invalid = [
        "a", "a =", "a = # no value\n", "= 1", "a = 1 b = 2", "a = 1\na = 2\n", "a.b = 1\na.b = 2\n",
        "a = 1\na.b = 2\n",
        "\"a\" = 1\na = 2\n", "a b = 1", "a. = 1", ".a = 1", "a..b = 1", "\"\"\"a\"\"\" = 1", "a = 1\r", "a = 1\rb = 2",
        "# control \u{7} in a comment\n", "# DEL \u{7F}\n", "a = \"ctrl \u{1} char\"", "a = 'ctrl \u{1F} char'",
        // Strings.
        "a = \"unclosed", "a = \"line\nbreak\"", "a = 'unclosed", "a = \"\"\"never closed", "a = '''never closed",
        #"a = "\x41""#, #"a = "\e""#, #"a = "\u12""#, #"a = "\uD800""#, #"a = "\U00110000""#, #"a = "\ ""#,
        "a = \"\"\"six quotes\"\"\"\"\"\"\n", "a = '''six'''''''\n", "a = \"\"\"x\\ y\"\"\"",
        // Integers.
        "a = 01", "a = +01", "a = 1__0", "a = _1", "a = 1_", "a = 0x", "a = 0x_1", "a = 0x1_", "a = +0x1", "a = -0b1",
        "a = 0b2", "a = 0o8", "a = 0xG", "a = 9223372036854775808", "a = -9223372036854775809",
        "a = 0x8000000000000000", "a = 1 2", "a = 0X1", "a = 1,",
        // Floats.
        "a = .5", "a = 5.", "a = 1.e5", "a = 1e", "a = 1e_5", "a = 1._5", "a = 1.5_", "a = 03.14", "a = 1.2.3",
        "a = infinity", "a = NaN", "a = Inf", "a = 1e5.5", "a = +", "a = -",
        // Booleans, dates and times.
        "a = True", "a = truee", "a = tru", "a = 1979-05-27T", "a = 1979-13-01", "a = 1979-02-29", "a = 1979-05-32",
        "a = 1979-05-27T24:00:00", "a = 1979-05-27T07:60:00", "a = 1979-05-27T07:32:61", "a = 07:32",
        "a = 1979-05-27T07:32:00+24:00", "a = 1979-05-27T07:32:00.Z", "a = 1979-5-27", "a = 1979-05-27T07:32:00X",
        "a = 1979-05-27  07:32:00", "a = 07:32:00Z",
        // Arrays.
        "a = [1 2]", "a = [,]", "a = [1,,2]", "a = [1", "a = [\n1,\n", "a = ]", "a = [}]",
        // Inline tables.
        "a = {", "a = { x = 1, }", "a = { x = 1\n}", "a = {\nx = 1 }", "a = { x = 1 y = 2 }", "a = { x = 1, x = 2 }",
        "a = { x.y = 1, x = 2 }", "a = { x = 1 }\na.y = 2\n", "a = { x = 1 }\n[a]\n", "a = { x = {} }\n[a.x]\n",
        "a = { , }",
        // Tables.
        "[a]\n[a]\n", "[a]\nb = 1\n[a.b]\n", "[a.b]\n[a.b]\n", "[]", "[a", "[a]]", "[[a]", "[ [a]]", "[a] b = 1",
        "a = 1\n[a]\n", "a = []\n[[a]]\n", "[[a]]\n[a]\n", "[a]\n[[a]]\n", "[a.b.c]\nz = 9\n[a]\nb.c.t = 9\n",
        "[a.b.c.d]\nz = 9\n[a]\nb.c.d.k.t = 9\n", "[fruit]\napple.color = \"red\"\n[fruit.apple]\n",
        "[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]\n", "a.b = 1\n[a]\n", "[a.\"\"\"b\"\"\"]", "[a.]",
        "[\"a\n\"]", "a = 1 # c \u{0}\n", "\"\\u00e9\" = 1\n\"é\" = 2\n",
    ]

    @Test("hand-picked documents: the same values, the same refusals")
    func handPicked() async throws {
        // Python reads every document while this waits: on a thread of its own, not the cooperative pool's.
        let disagreements = try await CPUBoundWork.run { try TOMLOracle.disagreements(Self.valid + Self.invalid) }
        #expect(disagreements.isEmpty, "\(disagreements.map(\.description).joined(separator: "\n"))")
    }

    @Test("the hand-picked documents are what they are said to be")
    func handPickedKinds() {
        for document in Self.valid {
            #expect(throws: Never.self, "\(document.debugDescription)") { try TOMLReader.read(document) }
        }
        for document in Self.invalid {
            let error = #expect(throws: ConfigurationError.self, "\(document.debugDescription)") {
                try TOMLReader.read(document)
            }
            #expect(error?.code == .syntax, "\(document.debugDescription)")
        }
    }

    @Test("3,000 generated documents, half of them mutated: the same values, the same refusals")
    func generated() async throws {
        var generator = TOMLDocumentGenerator(seed: 0x5EED_70A1)
        let documents = (0..<3000).map { _ in generator.document() }
        let disagreements = try await CPUBoundWork.run { try TOMLOracle.disagreements(documents) }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20).map(\.description).joined(separator: "\n"))")
    }
}
