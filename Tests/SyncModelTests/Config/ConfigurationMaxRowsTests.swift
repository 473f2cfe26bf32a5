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

@Suite("configuration: [server] max_streams")
struct ConfigurationMaxStreamsTests {
    @Test("max_streams defaults to 256 and takes 0 (streams off) to 65536")
    func maxStreams() throws {
        #expect(try SyncConfiguration.parse("", sourcePath: "syncd.toml").server.maxStreams == 256)
        #expect(
            try SyncConfiguration.parse("[server]\nmax_streams = 0", sourcePath: "syncd.toml").server.maxStreams == 0)
        #expect(
            try SyncConfiguration.parse("[server]\nmax_streams = 65536", sourcePath: "syncd.toml").server.maxStreams
                == 65_536)
    }

    @Test(
        "max_streams out of range or not an integer is refused, naming the line, the key and the range",
        arguments: ["-1", "65537", "9223372036854775807", "\"256\"", "1.5"])
    func badMaxStreams(text: String) {
        #expect(
            configurationProblems("[server]\nlisten = \"off\"\nmax_streams = \(text)") == [
                "syncd.toml:3: [server]: max_streams must be a whole number from 0 to 65536"
            ])
    }
}

@Suite("configuration: [server] allow_revalidate")
struct ConfigurationAllowRevalidateTests {
    @Test("allow_revalidate is off unless set true, and anything but a boolean is refused at its line")
    func allowRevalidate() throws {
        #expect(try SyncConfiguration.parse("", sourcePath: "syncd.toml").server.allowRevalidate == false)
        #expect(
            try SyncConfiguration.parse("[server]\nallow_revalidate = true", sourcePath: "syncd.toml").server
                .allowRevalidate)
        #expect(
            configurationProblems("[server]\nlisten = \"off\"\nallow_revalidate = \"yes\"") == [
                "syncd.toml:3: [server]: allow_revalidate must be true or false"
            ])
    }
}
