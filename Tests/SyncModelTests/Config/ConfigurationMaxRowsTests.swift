import SyncTesting
import Testing

@testable import SyncCore

@Suite("configuration: [server] max_rows")
struct ConfigurationMaxRowsTests {
    @Test("max_rows defaults to 1000 and takes 1 to 100000")
    func maxRows() throws {
        #expect(try SyncConfiguration.parse("", sourcePath: "syncd.toml").server.maxRows == 1000)
        #expect(try SyncConfiguration.parse("[server]\nmax_rows = 1", sourcePath: "syncd.toml").server.maxRows == 1)
        #expect(
            try SyncConfiguration.parse("[server]\nmax_rows = 100000", sourcePath: "syncd.toml").server.maxRows
                == 100_000)
    }

    @Test(
        "max_rows out of range or not an integer is refused, naming the line, the key and the range",
        arguments: ["0", "-1", "100001", "9223372036854775807", "\"1000\"", "1.5"])
    func badMaxRows(text: String) {
        #expect(
            configurationProblems("[server]\nlisten = \"off\"\nmax_rows = \(text)") == [
                "syncd.toml:3: [server]: max_rows must be a whole number from 1 to 100000"
            ])
    }
}
