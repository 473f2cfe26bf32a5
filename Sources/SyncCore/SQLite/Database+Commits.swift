internal import CSQLite

extension Database {
    /// Calls `body` after each commit of this connection with the number of frames the write-ahead log then holds
    /// (https://sqlite.org/c3ref/wal_hook.html), on the committing thread, with the connection still in use: `body`
    /// must not use it. It replaces SQLite's own checkpoint after a commit that leaves 1,000 frames, which the caller
    /// then runs where it likes (``DatabaseQueue`` on its thread).
    package func onCommit(_ body: @escaping @Sendable (_ framesInLog: Int) -> Void) {
        let hook = CommitHook(body)
        commitHook = hook
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                if let context { Unmanaged<CommitHook>.fromOpaque(context).takeUnretainedValue().body(Int(frames)) }
                return SQLITE_OK
            }, Unmanaged.passUnretained(hook).toOpaque())
    }
}

/// What ``Database/onCommit(_:)`` calls; the connection holds it, and SQLite an unretained pointer to it.
final class CommitHook {
    let body: @Sendable (Int) -> Void

    init(_ body: @escaping @Sendable (Int) -> Void) {
        self.body = body
    }
}
