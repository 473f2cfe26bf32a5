import Foundation
import Logging
import SyncTesting
import Synchronization
import Testing

@testable import SyncSystemd

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The lines a handler wrote, in order.
private final class CapturedLines: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    var output: JournalLogHandler.Output {
        { line in self.lines.withLock { $0.append(line) } }
    }
}

/// 2026-11-21T10:00:00Z.
private let fixedTime: Int64 = 1_795_255_200

private func makeLogger(_ format: JournalLogHandler.Format, _ captured: CapturedLines) -> Logger {
    var logger = Logger(label: "syncd") { label in
        JournalLogHandler(label: label, format: format, output: captured.output, now: { fixedTime })
    }
    logger.logLevel = .trace
    return logger
}

private struct UpstreamUnavailable: Error, CustomStringConvertible {
    var description: String { "the server answered 503" }
}

@Suite("JournalLogHandler")
struct JournalLogHandlerTests {
    @Test("a human line: UTC time, level, label, message, then metadata sorted by key with spaced values quoted")
    func humanLine() {
        let captured = CapturedLines()
        let logger = makeLogger(.human, captured)
        logger.warning(
            "endpoint failed",
            metadata: ["endpoint.name": "users", "http.status": "503", "error": "connection reset by peer"])
        logger.info("sync finished")
        #expect(
            captured.all == [
                "2026-11-21T10:00:00Z warning syncd: endpoint failed endpoint.name=users"
                    + " error=\"connection reset by peer\" http.status=503\n",
                "2026-11-21T10:00:00Z info syncd: sync finished\n",
            ])
    }

    @Test("a journal line: the syslog priority in <N>, no time and no label (the journal adds its own)")
    func journalLine() {
        let captured = CapturedLines()
        let logger = makeLogger(.journal, captured)
        logger.error("endpoint failed", metadata: ["endpoint.name": "users", "sync.run_id": "42"])
        #expect(captured.all == ["<3>endpoint failed endpoint.name=users sync.run_id=42\n"])
    }

    @Test(
        "each level has its syslog priority",
        arguments: [
            (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ])
    func priority(level: Logger.Level, priority: Int) {
        let captured = CapturedLines()
        makeLogger(.journal, captured).log(level: level, "message")
        #expect(captured.all == ["<\(priority)>message\n"])
        #expect(JournalLogHandler.syslogPriority(level) == priority)
    }

    @Test("a multi-line message stays one line, so one journal entry with one priority: line breaks are escaped")
    func multiLineMessage() {
        let captured = CapturedLines()
        let logger = makeLogger(.journal, captured)
        logger.warning("first line\nsecond line\r\nthird", metadata: ["body": "a\nb"])
        makeLogger(.human, captured).notice("one\ntwo")
        #expect(
            captured.all == [
                "<4>first line\\nsecond line\\r\\nthird body=a\\nb\n",
                "2026-11-21T10:00:00Z notice syncd: one\\ntwo\n",
            ])
    }

    @Test("control characters are escaped and quoted values keep quotes and backslashes apart")
    func escaping() {
        let captured = CapturedLines()
        makeLogger(.journal, captured).info(
            "bell\u{07} escape\u{1B}[31m tab\tkept",
            metadata: ["empty": "", "quote": "say \"hi\"", "path": "C:\\dir name", "plain": "a\"b"])
        #expect(
            captured.all == [
                "<6>bell\\x07 escape\\x1b[31m tab\tkept empty=\"\" path=\"C:\\\\dir name\" plain=\"a\\\"b\""
                    + " quote=\"say \\\"hi\\\"\"\n"
            ])
    }

    @Test("the handler's metadata, the provider's and the message's merge, the message's winning; errors add keys")
    func metadataMerge() {
        let captured = CapturedLines()
        var handler = JournalLogHandler(label: "syncd", format: .journal, output: captured.output, now: { 0 })
        handler.metadata = ["endpoint.name": "users", "source": "handler"]
        handler[metadataKey: "sync.run_id"] = "7"
        handler.metadataProvider = Logger.MetadataProvider { ["source": "provider", "task": "scheduler"] }
        handler.log(
            event: LogEvent(
                level: .error, message: "sync failed", error: UpstreamUnavailable(), metadata: ["source": "message"],
                source: "SyncCore", file: #fileID, function: #function, line: #line))
        #expect(
            captured.all == [
                "<3>sync failed endpoint.name=users error.message=\"the server answered 503\""
                    + " error.type=UpstreamUnavailable source=message sync.run_id=7 task=scheduler\n"
            ])
    }

    @Test(
        "UTC timestamps",
        arguments: [
            (0, "1970-01-01T00:00:00Z"), (1_795_255_200, "2026-11-21T10:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"),
        ])
    func timestamps(seconds: Int64, text: String) {
        #expect(JournalLogHandler.utcTimestamp(seconds) == text)
    }

    @Test("JOURNAL_STREAM selects the journal format only when it names the descriptor's device and inode")
    func journalStreamDetection() throws {
        let directory = try TemporaryDirectory()
        let descriptor = open(directory.file("stderr"), O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        let device = UInt64(status.st_dev)
        let inode = UInt64(status.st_ino)

        func format(_ value: String?) -> JournalLogHandler.Format {
            JournalStream.format(environment: value.map { ["JOURNAL_STREAM": $0] } ?? [:], descriptor: descriptor)
        }
        #expect(format("\(device):\(inode)") == .journal)
        #expect(format("\(device):\(inode + 1)") == .human)
        #expect(format("\(device + 1):\(inode)") == .human)
        #expect(format(nil) == .human)
        for malformed in ["", "\(device)", "\(device):", ":\(inode)", "\(device):\(inode):0", "x:\(inode)"] {
            #expect(format(malformed) == .human, "JOURNAL_STREAM=\(malformed)")
        }
        #expect(JournalStream.format(environment: ["JOURNAL_STREAM": "\(device):\(inode)"], descriptor: -1) == .human)
    }

    @Test("bootstrap's factory makes handlers at the level and in the format it was given")
    func factory() throws {
        // LoggingSystem.bootstrap may run once per process, so the test checks what bootstrap(level:environment:)
        // installs rather than installing it.
        let captured = CapturedLines()
        let factory = JournalLogHandler.makeFactory(level: .notice, format: .journal, output: captured.output)
        let handler = try #require(factory("syncd") as? JournalLogHandler)
        #expect(handler.logLevel == .notice)
        #expect(handler.format == .journal)
        #expect(handler.label == "syncd")

        let logger = Logger(label: "syncd", factory: factory)
        logger.info("below the level")
        logger.notice("at the level")
        #expect(captured.all == ["<5>at the level\n"])
    }

    @Test("concurrent lines reach the descriptor whole, never interleaved")
    func concurrentWrites() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("log")
        let descriptor = open(path, O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = DescriptorWriter(descriptor: descriptor)
        let filler = String(repeating: "x", count: 2000)

        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let logger = Logger(label: "syncd") { label in
                        JournalLogHandler(label: label, format: .journal, output: writer.write)
                    }
                    for line in 0..<200 { logger.info("task \(task) line \(line) \(filler)") }
                }
            }
        }

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 8 * 200)
        for task in 0..<8 {
            let own = lines.filter { $0.hasPrefix("<6>task \(task) line ") }
            #expect(own.map { $0 } == (0..<200).map { "<6>task \(task) line \($0) \(filler)"[...] })
        }
    }
}
