#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a descriptor is the journal stream systemd connected: `JOURNAL_STREAM` is `DEVICE:INODE` (decimal) of
/// that stream, and it counts only while the descriptor still is that stream (systemd.exec(5)): a child whose
/// standard error was redirected inherits the variable but not the stream.
enum JournalStream {
    /// ``JournalLogHandler/Format/journal`` when `descriptor` is the stream `JOURNAL_STREAM` names, else
    /// ``JournalLogHandler/Format/human``.
    static func format(environment: [String: String], descriptor: Int32 = 2) -> JournalLogHandler.Format {
        isJournal(environment: environment, descriptor: descriptor) ? .journal : .human
    }

    /// Whether `descriptor`'s device and inode are those in `JOURNAL_STREAM`; false when it is unset or malformed.
    static func isJournal(environment: [String: String], descriptor: Int32) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(truncatingIfNeeded: status.st_dev) == device
            && UInt64(truncatingIfNeeded: status.st_ino) == inode
    }
}
