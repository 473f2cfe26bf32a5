import FoundationEssentials
import SyncCore
import SyncSupport

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The daemon's running syncs as it publishes them for `syncd status`: `syncd-running.json` in its state folder,
/// beside the OAuth2 token times, rewritten once a second while a sync runs and removed when none does.
///
/// A file rather than the database: a write to SQLite while a sync streams its records into a transaction would wait
/// for that transaction's lock and make it give way (the rule the spool's feed follows), and a file needs no migration. A file
/// rather than the read API: the daemon may serve none, and `status` would need its address and token. As with the
/// token times, `status` sees the syncs of the daemon whose state folder it reads (the same `STATE_DIRECTORY`).
struct RunningSyncsFile {
    static let name = "syncd-running.json"
    /// A file older than this is a daemon's that stopped writing it (stopped, or killed): its syncs are not shown.
    static let staleAfter = 10.0
    /// The most bytes read: a daemon syncs at most a few hundred endpoints at once, each a line of counts.
    static let maxBytes = 1 << 20

    let path: String

    init(stateDirectory: String) {
        path = FilePathText.appending(Self.name, to: stateDirectory)
    }

    /// The file: which process wrote it, when, and its running syncs (their keys in snake case: `started_at`).
    private struct Contents: Codable {
        var pid: Int32
        var writtenAt: Double
        var running: [SyncProgress]
    }

    /// Replaces the file with `running`, written at `now` by this process, atomically (a new file renamed over it).
    func write(_ running: [SyncProgress], now: Double) throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(Contents(pid: getpid(), writtenAt: now, running: running))
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Removes the file, if it is there.
    func remove() {
        // Best effort: a file left behind names a process that is gone, and `read` ignores it.
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The running syncs the file names: none when there is no file, when it cannot be read, when the process that
    /// wrote it is gone, or when it was last written more than ``staleAfter`` seconds before `now`.
    func read(now: Double) -> [SyncProgress] {
        guard let bytes = try? ConfigurationFile.readBytes(atPath: path, limit: Self.maxBytes) else { return [] }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let contents = try? decoder.decode(Contents.self, from: data), contents.pid > 0,
            kill(contents.pid, 0) == 0 || errno == EPERM,
            contents.writtenAt.isFinite, now - contents.writtenAt <= Self.staleAfter
        else { return [] }
        // Counts from a file: a negative one, or a time that is not one, leaves that sync out.
        return contents.running.filter { progress in
            let counts = [
                progress.pages, progress.bytes, progress.records ?? 0, progress.totalRecords ?? 0,
                progress.totalPages ?? 0, progress.parentsDone ?? 0, progress.parentsTotal ?? 0,
            ]
            return progress.startedAt.isFinite && counts.allSatisfy { $0 >= 0 }
        }
    }
}
