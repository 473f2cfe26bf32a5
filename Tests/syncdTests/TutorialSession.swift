import Foundation
import SampleUpstream
import Testing

/// One reader going through docs/tutorial.md on this machine, in a scratch folder, with the built binaries.
///
/// The page's commands run as written, through /bin/sh on a terminal (`script`, so that `syncd sync` prints its
/// report line as it does for a reader; `TERM=dumb` leaves out the live progress line a terminal erases anyway), in the
/// folder the reader is in (a `cd` carries over to the next block, as in one terminal). What differs from a reader's
/// machine is rewritten, as `.ci/readme-install` rewrites the README's install blocks:
///
/// - `sudo` is dropped, and `/usr/local/bin/` and `/etc/` are folders under the scratch root; `~` is a scratch home;
/// - the `swift build` lines are not run (the test cannot build inside the build that runs it): each must name a
///   product whose binary the test build made, and `.build/release/` is that build's folder;
/// - the servers listen on ports the system picks; the page's ports (`--port 8080`, `listen = "127.0.0.1:8787"`) are
///   replaced by the real ones once the server printed them, and so are the page's ETags by the ones printed;
/// - `systemctl` and `journalctl` need systemd as PID 1, which a test machine lacks. `systemctl enable --now syncd`
///   is played as systemd plays it: the installed unit's `ExecStart=` run with `STATE_DIRECTORY`, a `NOTIFY_SOCKET`
///   and `/` as its folder, ready at `READY=1`; the next command waits for its first sync, as a person typing it does.
///   `systemctl disable --now syncd` sends SIGTERM. The other `systemctl` lines and `journalctl` are not run.
final class TutorialSession {
    let scratch: String
    let root: String
    let home: String
    let bin: String
    private(set) var directory: String
    /// The page's ports and ETag first parts, and the real ones.
    private var ports: [String: String] = [:]
    private var etags: [String: String] = [:]
    /// Ports a file named that nothing listens on yet: the server started with it picks one, printed later.
    private var pendingPorts: Set<String> = []
    /// The ports that the page's files named before anything listened on them: where syncd, reading them, listens.
    private var filePorts: Set<String> = []
    private var terminals: [Int: (terminal: TutorialTerminal, command: String)] = [:]
    private var service: (running: SyncdProcess.Running, notify: NotifyListener)?

    init(scratch: String) throws {
        self.scratch = scratch
        root = scratch + "/root"
        home = scratch + "/home"
        bin = SyncdProcess.binary.deletingLastPathComponent().path
        // The reader starts in syncd's source folder.
        directory = TutorialPage.url.deletingLastPathComponent().deletingLastPathComponent().path
        for folder in [home, root + "/usr/local/bin", root + "/etc/systemd/system"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    var environment: [String: String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return ["PATH": root + "/usr/local/bin:" + path, "HOME": home, "TERM": "dumb"]
    }

    func run(_ step: TutorialPage.Step) async throws {
        switch step {
        case .commands(let line, let text, let output):
            try await runCommands(line: line, text: text, output: output)
        case .keepsRunning(let line, let number, let command, let output):
            try await start(line: line, number: number, command: command, output: output)
        case .file(let line, let name, let text):
            let path = directory + "/" + name
            #expect(!FileManager.default.fileExists(atPath: path), "docs/tutorial.md:\(line): \(name) exists already")
            let pending = pendingPorts
            try localized(text, line: line, listening: true).write(toFile: path, atomically: true, encoding: .utf8)
            filePorts.formUnion(pendingPorts.subtracting(pending))
        case .interrupt(let line, let number):
            guard let (terminal, command) = terminals.removeValue(forKey: number) else {
                Issue.record("docs/tutorial.md:\(line): nothing runs in terminal \(number)")
                return
            }
            let status = await terminal.stop(SIGINT)
            // syncd stops cleanly on SIGINT; another program may simply die of it, as Ctrl-C does.
            let clean = command.hasPrefix("syncd ") ? [0] : [0, SIGINT]
            #expect(clean.contains(status), "docs/tutorial.md:\(line): \(command) ended \(status)\n\(terminal.output)")
        }
    }

    /// Stops what the page left running: an error of the page, which should stop everything it starts.
    func finish() async {
        for (number, (terminal, command)) in terminals {
            Issue.record("the page leaves \(command) running in terminal \(number)")
            _ = await terminal.stop(SIGKILL)
        }
        terminals = [:]
        if let (running, _) = service {
            Issue.record("the page leaves the syncd service running")
            kill(running.pid, SIGKILL)
            _ = try? await running.result()  // reaped; the issue is recorded
        }
        service = nil
    }

    /// What every terminal printed, for a failure's message.
    var transcript: String {
        terminals.sorted { $0.key < $1.key }.map { "terminal \($0.key):\n\($0.value.terminal.output)" }
            .joined(separator: "\n")
    }

    // MARK: - Commands

    private func runCommands(line: Int, text: String, output: TutorialPage.Output?) async throws {
        var printed = ""
        var segment: [String] = []
        func flush() async throws {
            guard !segment.isEmpty else { return }
            printed += try await runScript(segment.joined(separator: "\n"), line: line)
            segment = []
        }
        for command in text.components(separatedBy: "\n") {
            if command.hasPrefix("swift build ") {
                try await flush()
                checkBuild(command, line: line)
            } else if command.contains("systemctl ") {
                try await flush()
                try await systemctl(command, line: line)
            } else if command.hasPrefix("journalctl ") || command.hasPrefix("sudo journalctl ") {
                try await flush()
            } else {
                segment.append(command)
            }
        }
        try await flush()
        compare(TutorialOutput.lines(printed), with: output, line: line)
    }

    /// Runs `script` on a terminal in the reader's folder; what it printed. A command that fails is an error of the
    /// page, unless the page shows it failing (`; echo "exit $?"`).
    private func runScript(_ script: String, line: Int) async throws -> String {
        let stepPath = scratch + "/step.sh"
        let folderPath = scratch + "/folder"
        let text = localized(script, line: line, listening: false)
        try (text + "\nstatus=$?\npwd > '\(folderPath)'\nexit $status\n").write(
            toFile: stepPath, atomically: true, encoding: .utf8)
        let result = try await SyncdProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "/bin/sh '\(stepPath)'", "/dev/null"],
            environment: environment, directory: directory)
        #expect(
            result.status == 0, "docs/tutorial.md:\(line): exit \(result.status)\n\(text)\n\(result.standardOutput)")
        directory = try String(contentsOfFile: folderPath, encoding: .utf8).trimmingCharacters(in: .newlines)
        return result.standardOutput
    }

    /// A build line names a product that the test build made; the test runs that build's binaries instead.
    private func checkBuild(_ command: String, line: Int) {
        let prefix = "swift build -c release --static-swift-stdlib --product "
        let product = command.hasPrefix(prefix) ? String(command.dropFirst(prefix.count)) : ""
        #expect(
            !product.isEmpty && FileManager.default.isExecutableFile(atPath: bin + "/" + product),
            "docs/tutorial.md:\(line): \(command) builds no product the test build has")
    }

    private func compare(_ printed: [String], with output: TutorialPage.Output?, line: Int) {
        guard let output else {
            let text = printed.joined(separator: "\n")
            #expect(
                printed.isEmpty, "docs/tutorial.md:\(line): the page shows no output, the command printed:\n\(text)")
            return
        }
        switch TutorialOutput.compare(printed, with: output) {
        case .success(let captures): learn(captures, line: output.line, newServer: false)
        case .failure(let mismatch): Issue.record("\(mismatch)")
        }
    }

    /// Takes in the ports and ETags a command printed. A port is learnt only from a server that just started; any
    /// other output must print the port, and the ETag, that the page's earlier output stood for.
    private func learn(_ captures: [TutorialOutput.Capture], line: Int, newServer: Bool) {
        for capture in captures {
            switch capture {
            case .etag(let page, let actual):
                if let known = etags[page] {
                    #expect(known == actual, "docs/tutorial.md:\(line): ETag \"\(page)…\" was \"\(known)…\" before")
                }
                etags[page] = actual
            case .port(let page, let actual):
                if newServer, pendingPorts.remove(page) != nil || ports[page] == nil {
                    ports[page] = actual
                } else {
                    #expect(ports[page] == actual, "docs/tutorial.md:\(line): port \(page) is \(ports[page] ?? "none")")
                }
            }
        }
    }

    /// The page's text as it runs here (see the type's comment). With `listening`, a loopback port that no server has
    /// yet is one that the server reading this text will pick.
    private func localized(_ text: String, line: Int, listening: Bool) -> String {
        var text = text.replacingOccurrences(of: "sudo ", with: "")
            .replacingOccurrences(of: "/usr/local/bin/", with: root + "/usr/local/bin/")
            .replacingOccurrences(of: "/etc/", with: root + "/etc/")
            .replacingOccurrences(of: ".build/release/", with: bin + "/")
        for (page, actual) in etags { text = text.replacingOccurrences(of: "\"\(page).", with: "\"\(actual).") }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: #"127\.0\.0\.1:\d+"#, options: .regularExpression) {
            let port = String(rest[range].dropFirst("127.0.0.1:".count))
            result += rest[..<range.lowerBound]
            if let actual = ports[port] {
                result += "127.0.0.1:" + actual
            } else if listening {
                pendingPorts.insert(port)
                result += "127.0.0.1:0"
            } else {
                Issue.record("docs/tutorial.md:\(line): nothing listens on 127.0.0.1:\(port) yet")
                result += rest[range]
            }
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    // MARK: - Terminals that keep running

    /// Starts the command in its terminal and waits until it printed every line the page shows (in any order: a
    /// daemon's log lines race), then checks it printed nothing else.
    private func start(line: Int, number: Int, command: String, output: TutorialPage.Output?) async throws {
        var text = localized(command, line: line, listening: true)
        if let range = text.range(of: #"--port \d+"#, options: .regularExpression) {
            pendingPorts.insert(String(text[range].dropFirst("--port ".count)))
            text.replaceSubrange(range, with: "--port 0")
        }
        let terminal = try TutorialTerminal(
            command: text, directory: directory, environment: environment, scratch: scratch, number: number)
        terminals[number] = (terminal, command)
        let patterns = (output?.lines ?? []).filter { !$0.isEmpty }.map(TutorialOutput.pattern)
        let seen = await terminal.waitFor { printed in
            Self.assign(patterns, to: TutorialOutput.lines(printed)) != nil
        }
        let printed = TutorialOutput.lines(terminal.output)
        guard seen, let captures = Self.assign(patterns, to: printed) else {
            let text = printed.joined(separator: "\n")
            Issue.record(
                "docs/tutorial.md:\(output?.line ?? line): \(command) did not print what the page shows:\n\(text)")
            return
        }
        for printedLine in printed where !patterns.contains(where: { $0.match(printedLine) != nil }) {
            Issue.record("docs/tutorial.md:\(output?.line ?? line): the page does not show the line\n  \(printedLine)")
        }
        learn(captures, line: output?.line ?? line, newServer: true)
    }

    /// Each pattern matched by a printed line of its own, taken in order; the captures, or nil when one is missing.
    private static func assign(_ patterns: [TutorialOutput.LinePattern], to lines: [String]) -> [TutorialOutput
        .Capture]?
    {
        var used = Set<Int>()
        var captures: [TutorialOutput.Capture] = []
        for pattern in patterns {
            guard
                let (index, found) = lines.indices.lazy.filter({ !used.contains($0) })
                    .compactMap({ index in pattern.match(lines[index]).map { (index, $0) } }).first
            else { return nil }
            used.insert(index)
            captures += found
        }
        return captures
    }

    // MARK: - systemd

    private func systemctl(_ command: String, line: Int) async throws {
        switch command.split(separator: " ").filter({ $0 != "sudo" }).map(String.init) {
        case ["systemctl", "daemon-reload"]: return
        case ["systemctl", "enable", "--now", "syncd"], ["systemctl", "start", "syncd"]:
            try await startService(line: line)
        case ["systemctl", "disable", "--now", "syncd"], ["systemctl", "stop", "syncd"]:
            try await stopService(line: line)
        default: Issue.record("docs/tutorial.md:\(line): the test cannot play \"\(command)\"")
        }
    }

    /// The installed unit's `ExecStart=`, run as systemd runs it, until `READY=1` and the first sync.
    private func startService(line: Int) async throws {
        let unit = try String(contentsOfFile: root + "/etc/systemd/system/syncd.service", encoding: .utf8)
            .components(separatedBy: "\n")
        #expect(unit.contains("Type=notify") && unit.contains("StateDirectory=syncd"))
        let execStart = try #require(unit.first { $0.hasPrefix("ExecStart=") }, "the unit has no ExecStart=")
        let arguments = localized(String(execStart.dropFirst("ExecStart=".count)), line: line, listening: false)
            .split(separator: " ").map(String.init)
        let state = root + "/var/lib/syncd"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let notify = try NotifyListener(directory: scratch)
        let running = try SyncdProcess.launch(
            executable: URL(fileURLWithPath: arguments[0]), Array(arguments.dropFirst()),
            environment: ["NOTIFY_SOCKET": notify.path, "STATE_DIRECTORY": state, "PATH": "/usr/bin:/bin"],
            directory: "/")
        service = (running, notify)
        var ready: [String] = []
        var synced = false
        while ready.isEmpty || !synced, let message = await notify.next() {
            if message.contains("READY=1") {
                ready.append(message)
            } else if message.hasPrefix("STATUS=") {
                synced = true
            }
        }
        let address = try #require(ReadAPIDaemonTests.address(in: ready), "docs/tutorial.md:\(line): no READY=1")
        // The service reads the configuration the page wrote: its read API stands for the port that file named.
        for page in filePorts { ports[page] = String(address.split(separator: ":").last ?? "") }
        #expect(
            FileManager.default.fileExists(atPath: state + "/cache.db"),
            "the service's database is not in $STATE_DIRECTORY")
    }

    private func stopService(line: Int) async throws {
        guard let (running, _) = service else {
            Issue.record("docs/tutorial.md:\(line): the syncd service is not running")
            return
        }
        service = nil
        kill(running.pid, SIGTERM)
        let result = try await running.result()
        #expect(
            result.status == 0, "docs/tutorial.md:\(line): the service ended \(result.status)\n\(result.standardError)")
    }
}
