import Foundation
import Synchronization

/// The files that appear in and leave one folder, from inotify, as an `AsyncStream` a test awaits: a file another
/// process writes (the daemon's `syncd-running.json`) is waited for as an event, not by polling or sleeping.
///
/// A thread of its own blocks in `read` on the inotify descriptor, off Swift's cooperative pool; ``stop()`` removes
/// the watch, which wakes it with `IN_IGNORED` (as removing the folder does), and it closes the descriptor and ends
/// the stream.
final class DirectoryWatch: Sendable {
    /// A file that appeared (made, or renamed into the folder, as an atomic write does) or left (removed, or
    /// renamed away), by name.
    enum Change: Sendable, Hashable {
        case appeared(String)
        case left(String)
    }

    /// The inotify descriptor and its watch, until the reader closes it (nil then): ``stop()`` and the reader's
    /// close take turns, so that a descriptor number reused after the close is never touched.
    private final class Handle: Sendable {
        let state: Mutex<(descriptor: Int32, watch: Int32)?>

        init(descriptor: Int32, watch: Int32) {
            state = Mutex((descriptor, watch))
        }
    }

    let changes: AsyncStream<Change>
    private let handle: Handle

    /// Starts watching `directory`.
    init(_ directory: String) throws {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
        let watch = inotify_add_watch(descriptor, directory, mask)
        guard watch >= 0 else {
            close(descriptor)
            throw CocoaError(.fileReadNoSuchFile)
        }
        let handle = Handle(descriptor: descriptor, watch: watch)
        self.handle = handle
        let (changes, continuation) = AsyncStream.makeStream(of: Change.self)
        self.changes = changes
        let thread = Thread {
            Self.read(descriptor, into: continuation)
            continuation.finish()
            handle.state.withLock { state in
                state = nil
                close(descriptor)
            }
        }
        thread.start()
    }

    /// Stops watching: the stream ends once the reader has seen it.
    func stop() {
        handle.state.withLock { state in
            if let state { inotify_rm_watch(state.descriptor, state.watch) }
        }
    }

    /// Reads events until the watch is removed (`IN_IGNORED`) or the descriptor fails.
    private static func read(_ descriptor: Int32, into continuation: AsyncStream<Change>.Continuation) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let header = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            var offset = 0
            while offset + header <= count {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let end = min(count, offset + header + Int(event.len))
                // The name is NUL-padded to the event's length.
                let name = String(decoding: buffer[(offset + header)..<end].prefix { $0 != 0 }, as: UTF8.self)
                offset = end
                if event.mask & UInt32(IN_IGNORED) != 0 { return }
                if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { continuation.yield(.appeared(name)) }
                if event.mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { continuation.yield(.left(name)) }
            }
        }
    }
}

extension AsyncStream<DirectoryWatch.Change>.Iterator {
    /// Returns once `change` comes, skipping the others; false when the watch ended first.
    mutating func wait(for change: DirectoryWatch.Change) async -> Bool {
        while let next = await next() {
            if next == change { return true }
        }
        return false
    }
}
