import Foundation

/// A directory of its own for one test, removed when the test is done with it.
package final class TemporaryDirectory: Sendable {
    package let path: String

    package init() throws {
        var template = Array(
            (NSTemporaryDirectory() as NSString).appendingPathComponent("syncd-test-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let made else { throw CocoaError(.fileWriteUnknown) }
        path = made
    }

    package func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)  // best effort: /tmp is cleaned anyway
    }
}
