import FoundationEssentials
import SyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A program run as a child process, for the tests and tools that start `syncd`, a shell, `openssl` or `python3`.
///
/// It spawns with `posix_spawn` rather than Foundation's `Process`: `Process.run()` on Linux reads the names in
/// `/proc/self/fd` with a 256-byte over-read (swift-corelibs-foundation#5472, fixed after Swift 6.3) that crashes a
/// process with many descriptors open now and then — the test suite, which runs dozens of programs beside its
/// servers and databases, crashed in it about one run in seven. The child gets standard input from `/dev/null`,
/// standard output and error as asked, no other descriptor of this process, every signal at its default and none
/// blocked, and the working folder asked for.
package final class ChildProcess: Sendable {
    /// Where one of the child's output streams goes.
    package enum Output: Sendable {
        /// Discarded.
        case null
        /// Into this file, created or emptied first.
        case file(String)
        /// Into a pipe that this process reads: ``ChildProcess/readOutput(upTo:)``.
        case pipe
        /// Standard error only: where standard output goes.
        case standardOutput
    }

    /// Why a program could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The child's process identifier.
    package let pid: Int32
    /// The read end of the child's standard output, when it was ``Output/pipe``; closed with this value.
    private let output: Int32?

    private init(pid: Int32, output: Int32?) {
        self.pid = pid
        self.output = output
    }

    deinit {
        if let output { close(output) }
    }

    /// Starts `executable` (an absolute path) with `arguments` (without the program's name).
    ///
    /// - Parameter environment: The child's whole environment; this process's when nil.
    package static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        standardOutput: Output = .null, standardError: Output = .null
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipeEnds: [Int32] = [-1, -1]
        for (descriptor, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch output {
            case .null:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .pipe:
                guard pipeEnds[0] < 0 else { throw SpawnError(description: "only one stream may be a pipe") }
                // Not close-on-exec, which the C library has no race-free way to ask for here: every descriptor but
                // 0, 1 and 2 is closed in each child anyway.
                guard pipe(&pipeEnds) == 0 else {
                    throw SpawnError(description: "no pipe for \(executable): errno \(errno)")
                }
                posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], descriptor)
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
            }
        }
        // glibc's extensions, which Swift's Glibc module does not declare: every descriptor from 3 up closed in the
        // child (as Process does, without reading /proc/self/fd here), and the working folder.
        if let closeFrom = Self.symbol("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self) {
            _ = closeFrom(&actions, 3)
        }
        if let directory {
            guard let changeDirectory = Self.symbol("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self)
            else { throw SpawnError(description: "this C library cannot start a program in another folder") }
            _ = changeDirectory(&actions, directory)
        }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        // Every signal at its default and none blocked, as Process does: a signal this process ignores or blocks
        // (the in-process daemon tests trap SIGTERM and SIGHUP) must not stay ignored in a daemon that is started.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard result == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw SpawnError(description: "\(executable) cannot be started: \(String(cString: strerror(result)))")
        }
        return ChildProcess(pid: pid, output: pipeEnds[0] >= 0 ? pipeEnds[0] : nil)
    }

    /// Waits for the child to end, on a thread of its own (never one of the cooperative pool, which may be serving
    /// what the child talks to): its exit status, or the number of the signal that ended it, as `Process` says.
    package func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let pid = self.pid
            DetachedThread.start { continuation.resume(returning: Self.waitBlocking(pid)) }
        }
    }

    /// Waits for the child to end, blocking this thread: for a short local program that needs nothing from this
    /// process.
    package func waitBlocking() -> Int32 {
        Self.waitBlocking(pid)
    }

    /// Reads what the child wrote to its standard output pipe, blocking until there is some: at most `count` bytes,
    /// none at the end (or without a pipe).
    package func readOutput(upTo count: Int) -> [UInt8] {
        guard let output, count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var read = -1
        while read < 0 {
            read = bytes.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, count) }
            if read < 0, errno != EINTR { return [] }
        }
        return Array(bytes.prefix(read))
    }

    /// Reads the child's standard output pipe to its end.
    package func readOutputToEnd() -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = readOutput(upTo: 65_536)
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// Sends `signal` (SIGTERM, SIGKILL, …) to the child.
    package func send(_ signal: Int32) {
        kill(pid, signal)
    }

    private static func waitBlocking(_ pid: Int32) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED, WEXITSTATUS and WTERMSIG, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
    }
}
