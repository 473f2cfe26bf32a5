import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `syncd` binary keeps a statement's journal in memory (`SQLITE_CONFIG_STMTJRNL_SPILL`): storing many records
/// 32 to a statement used to move each statement's journal to a temporary file, one `pwrite` a page.
@Suite("syncd sync: SQLite's temporary files")
struct StatementJournalCLITests {
    /// A body of `count` records of about 500 bytes each.
    static func body(count: Int) -> String {
        let filler = String(repeating: "x", count: 440)
        let records = (1...count).map { #"{"id": \#($0), "name": "user \#($0)", "note": "\#(filler)"}"# }
        return "[" + records.joined(separator: ",\n") + "]"
    }

    @Test("a first sync of 20,000 records creates no file in SQLite's temporary folder")
    func noTemporaryFile() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let bodyPath = workspace.path + "/users.json"
        try Self.body(count: 20_000).write(toFile: bodyPath, atomically: true, encoding: .utf8)
        try """
        database = "cache.db"

        [[endpoint]]
        name = "users"
        url = "file://\(bodyPath)"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        note = "note"
        """.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let temporary = workspace.path + "/sqlite-tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)

        // SQLite unlinks a temporary file as soon as it opens it: only a watch on the folder sees it made.
        let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(watch >= 0)
        defer { close(watch) }
        try #require(inotify_add_watch(watch, temporary, UInt32(IN_CREATE)) >= 0)

        let sync = try await SyncdProcess.run(
            ["sync", "--config", workspace.config], environment: ["SQLITE_TMPDIR": temporary])
        #expect(sync.status == 0, "\(sync.standardError)")
        let count = try await workspace.run(["sql", "SELECT count(*) AS n FROM users", "--format", "csv"])
        #expect(count.standardOutput == "n\r\n20000\r\n")
        #expect(Self.events(watch) == 0, "SQLite made a temporary file in \(temporary)")

        // The watch sees a file made there.
        #expect(FileManager.default.createFile(atPath: temporary + "/probe", contents: nil))
        #expect(Self.events(watch) == 1)
    }

    /// The events waiting on `watch`, read without blocking.
    static func events(_ watch: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var events = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            guard count > 0 else { return events }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let length = buffer.withUnsafeBytes {
                    $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len
                }
                events += 1
                offset += MemoryLayout<inotify_event>.size + Int(length)
            }
        }
    }
}
