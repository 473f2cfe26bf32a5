package import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// syncd's log backend: one line per message on standard error, in the journal's format when standard error is the
/// journal and for people otherwise.
///
/// Under systemd, `JOURNAL_STREAM` holds the device and inode of the stream it connected to standard error. When
/// they match `fstat(2)` of descriptor 2, each line starts with the syslog priority, `<4>`, which journald reads as
/// the entry's priority and strips; the journal adds its own timestamp and identifier, so the line has neither:
///
/// ```
/// <4>endpoint failed endpoint.name=users error.message="the server answered 503"
/// ```
///
/// Anywhere else (a terminal, a file, a pipe, or a journal stream inherited by a child whose stderr is elsewhere),
/// the line starts with the time in UTC, the level and the logger's label:
///
/// ```
/// 2026-11-21T10:00:00Z warning syncd: endpoint failed endpoint.name=users error.message="the server answered 503"
/// ```
///
/// Metadata follows the message sorted by key, as `key=value`; a value that is empty or holds a space, a tab or a
/// quote is quoted, with `"` and `\` escaped. A message is always one line: line breaks and other control
/// characters in the message, keys and values are escaped (`\n`, `\r`, `\x1b`), so a multi-line message is one
/// journal entry with one priority and text from outside cannot forge a line. This handler does not redact: keeping
/// secrets out of messages and metadata is the caller's rule (STYLE.md §3).
///
/// Each line reaches the output whole, in one `write(2)` under a lock shared by every handler of the process, so
/// lines from concurrent tasks never interleave.
///
/// ## Topics
/// - ``bootstrap(level:environment:)``
/// - ``init(label:environment:)``
/// - ``init(label:format:output:)``
/// - ``Format``
/// - ``Output``
package struct JournalLogHandler: LogHandler {
    /// Where a handler's lines go: called once per message with the complete line, ending in `\n`.
    package typealias Output = @Sendable (String) -> Void

    /// The two line formats: ``journal`` (a `<N>` priority prefix) and ``human`` (a UTC time, level and label).
    package struct Format: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Hashable {
            case journal, human
        }

        private let kind: Kind

        /// `<N>message key=value`: for standard error connected to journald.
        package static let journal = Format(kind: .journal)

        /// `2026-11-21T10:00:00Z level label: message key=value`: for terminals, files and pipes.
        package static let human = Format(kind: .human)

        package var description: String { kind == .journal ? "journal" : "human" }
    }

    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?

    /// The logger's label, shown in human lines (the journal records the process's own identifier).
    package let label: String

    /// The format of every line this handler writes.
    package let format: Format

    private let output: Output

    /// Seconds since 1970 for human lines; a parameter so that tests can fix the time.
    private let now: @Sendable () -> Int64

    /// A handler writing `format` lines to `output`.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - format: ``Format/journal`` or ``Format/human``.
    ///   - output: Receives each complete line; the default writes it to standard error.
    package init(label: String, format: Format, output: @escaping Output = JournalLogHandler.standardError) {
        self.init(label: label, format: format, output: output, now: { Int64(time(nil)) })
    }

    /// A handler whose clock is `now`, for tests.
    init(label: String, format: Format, output: @escaping Output, now: @escaping @Sendable () -> Int64) {
        self.label = label
        self.format = format
        self.output = output
        self.now = now
    }

    /// A handler writing to standard error, in the journal's format when `JOURNAL_STREAM` names it.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - environment: The process environment, usually `ProcessInfo.processInfo.environment`.
    package init(label: String, environment: [String: String]) {
        self.init(label: label, format: JournalStream.format(environment: environment))
    }

    /// Makes this handler the process's log backend, at `level`. Call it once, first thing in `main`.
    ///
    /// Standard error is examined once, here: every logger made afterwards uses the same format.
    ///
    /// ```swift
    /// JournalLogHandler.bootstrap(level: .info, environment: ProcessInfo.processInfo.environment)
    /// ```
    ///
    /// - Parameters:
    ///   - level: The lowest level written.
    ///   - environment: The process environment, where `JOURNAL_STREAM` is read.
    package static func bootstrap(level: Logger.Level, environment: [String: String]) {
        LoggingSystem.bootstrap(makeFactory(level: level, format: JournalStream.format(environment: environment)))
    }

    /// What ``bootstrap(level:environment:)`` installs, separate so that tests can use it (bootstrap runs once per
    /// process).
    static func makeFactory(
        level: Logger.Level, format: Format, output: @escaping Output = JournalLogHandler.standardError
    ) -> @Sendable (String) -> any LogHandler {
        { label in
            var handler = JournalLogHandler(label: label, format: format, output: output)
            handler.logLevel = level
            return handler
        }
    }

    /// Writes each line to descriptor 2, whole, under the process-wide lock.
    package static let standardError: Output = { line in DescriptorWriter.standardError.write(line) }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var effective = metadata
        if let provided = metadataProvider?.get() {
            effective.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata {
            effective.merge(explicit) { _, explicit in explicit }
        }
        if let error = event.error {
            // StreamLogHandler's keys; the bare type name, as a private type's full name holds an address.
            effective["error.message"] = "\(error)"
            effective["error.type"] = "\(String(describing: type(of: error)))"
        }
        output(line(level: event.level, message: event.message.description, metadata: effective))
    }

    /// The complete line for one message, ending in `\n`.
    func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line: String
        if format == .journal {
            line = "<\(Self.syslogPriority(level))>"
        } else {
            line = "\(Self.utcTimestamp(now())) \(level.rawValue) \(LogLineText.escaped(label)): "
        }
        line += LogLineText.escaped(message)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " " + LogLineText.escaped(key) + "=" + LogLineText.value(value.description)
        }
        return line + "\n"
    }

    /// The syslog priority journald reads from a `<N>` prefix (sd-daemon(3)).
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7  // LOG_DEBUG
        case .info: 6  // LOG_INFO
        case .notice: 5  // LOG_NOTICE
        case .warning: 4  // LOG_WARNING
        case .error: 3  // LOG_ERR
        case .critical: 2  // LOG_CRIT
        }
    }

    /// `2026-11-21T10:00:00Z` for `seconds` since 1970.
    static func utcTimestamp(_ seconds: Int64) -> String {
        var time = time_t(truncatingIfNeeded: seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return String(seconds) }  // a year past Int32: not a date
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
            + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))Z"
    }
}
