import Foundation
import Synchronization
import Testing

@testable import SyncSupport

/// The small helpers that stand in for Foundation's NSString, NSCondition and `String(format:)`, which syncd's own
/// code no longer links (issue 45): each gives what the Foundation call it replaces gave.
@Suite("Foundation-free helpers")
struct FoundationFreeHelpersTests {
    @Test(
        "paths join and split as NSString's path methods do",
        arguments: ["/a/b", "/a", "/", "a/b", "cache.db", "a/b/", "/a//b", "//a", "./x", "../y/z"])
    func paths(_ path: String) {
        #expect(FilePathText.directory(of: path) == (path as NSString).deletingLastPathComponent)
        for component in ["c", "cache.db"] {
            #expect(FilePathText.appending(component, to: path) == (path as NSString).appendingPathComponent(component))
        }
    }

    @Test("an empty path and a one-letter name have no folder (where this toolchain's NSString traps)")
    func emptyPath() {
        #expect(FilePathText.directory(of: "") == "")
        #expect(FilePathText.directory(of: "a") == "")
        #expect(FilePathText.appending("cache.db", to: "") == "cache.db")
    }

    @Test(
        "a path is standardized lexically",
        arguments: [
            ("/a/./b//c/", "/a/b/c"), ("/a/b/../c", "/a/c"), ("/../a", "/a"), ("a/../..", ".."), ("./", "."),
            ("demo", "demo"), ("/tmp/x/..", "/tmp"),
        ])
    func standardized(_ path: String, _ expected: String) {
        #expect(FilePathText.standardized(path) == expected)
    }

    @Test(
        "a double is written as %.15g writes it",
        arguments: [0.1, 1.0, -2.5, 1e20, 1.0 / 3.0, 123_456_789_012_345_678, 5e-324, .infinity, -.infinity, 0])
    func general(_ value: Double) {
        #expect(DoubleText.general(value, significantDigits: 15) == String(format: "%.15g", value))
    }

    @Test("a thread started detached runs, and a condition wakes the thread that waits for it")
    func threadAndCondition() {
        let condition = ThreadCondition()
        let done = Mutex(false)
        DetachedThread.start {
            condition.lock()
            done.withLock { $0 = true }
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        while !done.withLock({ $0 }) { condition.wait() }
        condition.unlock()
        #expect(done.withLock { $0 })
    }

    @Test("a timed wait nobody signals returns false once its time has run out")
    func timedWait() {
        let condition = ThreadCondition()
        condition.lock()
        let signalled = condition.wait(timeout: .milliseconds(1))
        condition.unlock()
        #expect(!signalled)
    }
}
