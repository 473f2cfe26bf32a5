import Foundation
import SampleUpstream
import Synchronization

/// A terminal of the tutorial in which one program keeps running: the program started through /bin/sh, its standard
/// output and error read from one pipe as they come, and its standard input a FIFO that this side holds open, as a
/// terminal stays open (`sample-upstream serve` stops when its standard input ends).
final class TutorialTerminal: Sendable {
    let child: ChildProcess
    private let input: Int32
    private let fifo: String
    private let printed = Printed()
    private let chunks: AsyncStream<Void>

    init(command: String, directory: String, environment: [String: String], scratch: String, number: Int) throws {
        fifo = scratch + "/terminal-\(number).stdin"
        guard mkfifo(fifo, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        // Read and write, so that opening it does not wait for the program: a FIFO's reader then sees a writer.
        input = open(fifo, O_RDWR)
        guard input >= 0 else { throw CocoaError(.fileReadUnknown) }
        do {
            child = try ChildProcess.spawn(
                "/bin/sh", ["-c", "exec \(command) < '\(fifo)'"], environment: environment, directory: directory,
                standardOutput: .pipe, standardError: .standardOutput)
        } catch {
            close(input)
            throw error
        }
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        chunks = stream
        let child = self.child
        let printed = self.printed
        let thread = Thread {
            while true {
                let bytes = child.readOutput(upTo: 65_536)
                if bytes.isEmpty { break }
                printed.text.withLock { $0 += String(decoding: bytes, as: UTF8.self) }
                continuation.yield()
            }
            continuation.finish()
        }
        thread.name = "syncd-tests-tutorial-terminal"
        thread.start()
    }

    deinit {
        close(input)
    }

    /// Everything the program printed so far.
    var output: String { printed.text.withLock { $0 } }

    /// Waits until `done` holds for what the program printed, the program ends, or 120 s pass (a safety net, so that
    /// output that never comes fails the test rather than hanging it); returns whether `done` held.
    func waitFor(_ done: @escaping @Sendable (String) -> Bool) async -> Bool {
        let chunks = self.chunks
        let printed = self.printed
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                if done(printed.text.withLock { $0 }) { return true }
                for await _ in chunks where done(printed.text.withLock { $0 }) {
                    return true
                }
                return done(printed.text.withLock { $0 })
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(120))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// What the program printed, shared with the thread that reads it.
    private final class Printed: Sendable {
        let text = Mutex("")
    }

    /// Sends `signal` (Ctrl-C is SIGINT) and waits for the program to end: its status, or the signal that ended it.
    func stop(_ signal: Int32) async -> Int32 {
        child.send(signal)
        return await child.wait()
    }
}
