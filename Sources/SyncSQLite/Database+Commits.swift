internal import CSQLite

extension Database {
    /// What to do after a commit, as ``onCommit(_:)``'s closure decides.
    package enum AfterCommit: Sendable {
        case nothing
        /// A passive checkpoint, at once, as SQLite's own hook does: https://sqlite.org/c3ref/wal_checkpoint_v2.html
        case checkpoint
    }

    /// Calls `body` after each commit of this connection with the number of frames the write-ahead log then holds
    /// (https://sqlite.org/c3ref/wal_hook.html), on the committing thread, with the connection still in use: `body`
    /// must not use it, and says whether to checkpoint there and then. It replaces SQLite's own hook, which
    /// checkpoints in the committing thread after any commit that leaves 1,000 frames.
    package func onCommit(_ body: @escaping @Sendable (_ framesInLog: Int) -> AfterCommit) {
        let hook = CommitHook(body)
        commitHook = hook
        sqlite3_wal_hook(
            handle,
            { context, database, name, frames in
                guard let context else { return SQLITE_OK }
                switch Unmanaged<CommitHook>.fromOpaque(context).takeUnretainedValue().body(Int(frames)) {
                case .nothing: break
                case .checkpoint:
                    // As sqlite3WalDefaultHook: a failed checkpoint leaves the log as it was; the commit stands.
                    _ = sqlite3_wal_checkpoint_v2(database, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(hook).toOpaque())
    }
}

/// What ``Database/onCommit(_:)`` calls; the connection holds it, and SQLite an unretained pointer to it.
final class CommitHook {
    let body: @Sendable (Int) -> Database.AfterCommit

    init(_ body: @escaping @Sendable (Int) -> Database.AfterCommit) {
        self.body = body
    }
}
