import Foundation
package import Synchronization

/// A PostgreSQL server the tests start (the cluster, its standby): a shell that runs `script` as the `postgres`
/// user, says `ready` once the server is up, and stops it when its standard input closes, which happens when the
/// test process ends, however it ends. The outer shell, as root, runs `before` first (giving the folder to
/// `postgres`) and `cleanup` once the server stopped (removing the folder).
package struct ServerKeeper: Sendable {
    private let process: Process
    /// Held open for the server's life: its end closing is what stops the server.
    private let lifeline: FileHandle

    /// Starts the script and waits for its `ready`; throws `failure()`'s error when it does not come.
    package init(
        script: String, arguments: [String], before: String = "true", cleanup: String,
        failure: () -> PostgresTestCluster.ClusterError
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            "\(before) && runuser -u postgres -- /bin/sh -c '\(script)' \(arguments.joined(separator: " ")); \(cleanup)",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        lifeline = input.fileHandleForWriting
        guard output.fileHandleForReading.readLine() == "ready" else { throw failure() }
    }

    /// `make()`, on a thread of its own while the caller suspends, once for all callers: starting a server waits for
    /// it (a second, more on a loaded machine), and blocking the cooperative pool's threads (two on two cores)
    /// would stall every other test's loopback servers and clients for as long.
    package static func once<T: Sendable>(
        _ started: borrowing Mutex<Task<T, any Error>?>, thread name: String, _ make: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let start = started.withLock { start in
            if let start { return start }
            let new = Task<T, any Error> {
                try await withCheckedThrowingContinuation { continuation in
                    let thread = Thread { continuation.resume(with: Result { try make() }) }
                    thread.name = name
                    thread.start()
                }
            }
            start = new
            return new
        }
        return try await start.value
    }
}
