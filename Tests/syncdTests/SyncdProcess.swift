import Foundation
import SampleUpstream

/// The built `syncd` binary, run as a process the way a person or a script runs it.
struct SyncdProcess {
    struct Result: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The binary beside the test bundle, in the same build folder.
    static var binary: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("syncd")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("syncd")
    }

    /// Runs `syncd ARGUMENTS…` to completion, waiting without blocking a thread of the cooperative pool
    /// (the loopback upstream the process talks to answers from that pool).
    ///
    /// - Parameter outputPath: Where standard output goes while it runs, for a test that reads it meanwhile.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        outputPath: String? = nil, onStart: @Sendable (Int32) -> Void = { _ in }
    ) async throws -> Result {
        try await run(
            executable: binary, arguments, environment: environment, directory: directory, outputPath: outputPath,
            onStart: onStart)
    }

    /// Runs a command line through /bin/sh, as a person pasting it would.
    static func shell(_ commandLine: String) async throws -> Result {
        try await run(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", commandLine])
    }

    /// Runs `executable ARGUMENTS…` (a launcher such as `prlimit` or `/bin/sh` before `syncd`) as
    /// ``run(_:environment:directory:outputPath:onStart:)`` runs `syncd`.
    static func run(
        executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        outputPath: String? = nil, onStart: @Sendable (Int32) -> Void = { _ in }
    ) async throws -> Result {
        let running = try launch(
            executable: executable, arguments, environment: environment, directory: directory, outputPath: outputPath)
        onStart(running.pid)
        return try await running.result()
    }

    /// A started process whose output goes to files until it exits.
    struct Running: Sendable {
        let child: ChildProcess
        let outputURL: URL
        let errorURL: URL
        let scratch: URL

        var pid: Int32 { child.pid }

        /// Waits for the exit without blocking a thread of the cooperative pool, then reads what it wrote.
        func result() async throws -> Result {
            defer { try? FileManager.default.removeItem(at: scratch) }  // best effort
            let status = await child.wait()
            return Result(
                status: status, standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
                standardError: try String(contentsOf: errorURL, encoding: .utf8))
        }
    }

    /// Starts `executable ARGUMENTS…` now, on the caller's thread: a test that then waits for the process's messages
    /// counts its safety net from a process that exists, not from a task the busy pool has yet to run.
    static func launch(
        executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        outputPath: String? = nil
    ) throws -> Running {
        var env = ProcessInfo.processInfo.environment
        env["SYNCD_LOG_LEVEL"] = nil
        env["NOTIFY_SOCKET"] = nil
        for (key, value) in environment { env[key] = value }
        // Files, not pipes: nothing has to read while the process runs, so no thread blocks on a pipe.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "syncd-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outputURL = outputPath.map(URL.init(fileURLWithPath:)) ?? scratch.appendingPathComponent("stdout")
        let errorURL = scratch.appendingPathComponent("stderr")
        do {
            let child = try ChildProcess.spawn(
                executable.path, arguments, environment: env, directory: directory,
                standardOutput: .file(outputURL.path), standardError: .file(errorURL.path))
            return Running(child: child, outputURL: outputURL, errorURL: errorURL, scratch: scratch)
        } catch {
            try? FileManager.default.removeItem(at: scratch)  // best effort
            throw error
        }
    }
}
