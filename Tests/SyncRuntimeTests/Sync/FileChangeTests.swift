import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

// `timespec` comes from C headers that several modules include; which module the compiler says defines it depends
// on which modules the other files compiled in the same job load, and with member import visibility its initialiser
// then needs that module imported. Importing the one it names, where there is one, keeps this file building
// whichever files share its job.
#if canImport(CDispatch)
    import CDispatch
#endif

/// A `file://` upstream is compared by inode, modification time to the nanosecond and size, not by a Last-Modified
/// of whole seconds: a rewrite within the second of the last sync is a change.
@Suite("sync: file:// change detection")
struct FileChangeTests {
    /// Sets the file's modification time exactly, as a write at that instant would.
    static func setModified(_ path: String, seconds: Int, nanoseconds: Int) throws {
        let time = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
        let result = withUnsafePointer(to: (time, time)) { pair in
            pair.withMemoryRebound(to: timespec.self, capacity: 2) { utimensat(AT_FDCWD, path, $0, 0) }
        }
        try #require(result == 0)
    }

    /// Rewrites the file in place (same inode), so that only its bytes and modification time say it changed.
    static func rewrite(_ path: String, _ text: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test("a file rewritten within the same second, at the same size, is read again; an untouched one is a 304")
    func sameSecond() async throws {
        let files = try TemporaryDirectory()
        let path = files.file("users.json")
        try Self.rewrite(path, #"[{"id": 1, "name": "Ann"}]"#)
        try Self.setModified(path, seconds: 1_714_557_600, nanoseconds: 100_000_000)
        let fixture = try SyncFixture(
            toml: """
                [[endpoint]]
                name = "users"
                url = "\(URL(fileURLWithPath: path).absoluteString)"
                records = "$"
                primary_key = ["id"]

                [endpoint.columns]
                id = { path = "id", type = "integer" }
                name = "name"
                """)
        #expect(try await fixture.sync("users").inserted == 1)
        #expect(try await fixture.sync("users").outcome == .notModified)

        try Self.rewrite(path, #"[{"id": 1, "name": "Bob"}]"#)
        try Self.setModified(path, seconds: 1_714_557_600, nanoseconds: 900_000_000)
        let report = try await fixture.sync("users")
        #expect(report.outcome == .changed)
        #expect(report.updated == 1)
        #expect(try fixture.scalar("SELECT name FROM users") == .text("Bob"))
        #expect(try await fixture.sync("users").outcome == .notModified)
    }
}
