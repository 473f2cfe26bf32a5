import Foundation
import SyncHTTP
import Testing

@testable import SyncCore
@testable import SyncInfer

/// Reading standard input for `syncd infer -`: read(2) to the end, at most a limit, one sentence per failure.
@Suite("Reading a descriptor to its end")
struct DescriptorReaderTests {
    /// A pipe holding `bytes`, its writing end closed when `closing`.
    func makePipe(holding bytes: [UInt8], closing: Bool) throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        if closing { close(ends[1]) }
        return (ends[0], ends[1])
    }

    @Test("a pipe of exactly the limit is read whole")
    func atLimit() throws {
        let (reader, _) = try makePipe(holding: Array("[{\"a\":1}]".utf8), closing: true)
        defer { close(reader) }
        #expect(try DescriptorReader.readAll(reader, name: "standard input", limit: 9) == Array("[{\"a\":1}]".utf8))
    }

    @Test("a byte past the limit is refused at once, without waiting for the end of what is sent")
    func pastLimit() throws {
        // The writing end stays open: reading to the end would wait forever.
        let (reader, writer) = try makePipe(holding: Array(repeating: 0x20, count: 100), closing: false)
        defer {
            close(reader)
            close(writer)
        }
        #expect(throws: FetchError.bodyTooLarge) { try DescriptorReader.readAll(reader, name: "stdin", limit: 10) }
        do {
            _ = try DescriptorReader.readAll(reader, name: "stdin", limit: 10)
        } catch {
            #expect(error.description == "the body is larger than max_body (10 B)")
        }
    }

    @Test("a closed descriptor and a directory are each one sentence")
    func unreadable() throws {
        do {
            _ = try DescriptorReader.readAll(-1, name: "standard input", limit: 10)
            Issue.record("read a closed descriptor")
        } catch {
            #expect(error == .file && error.description == "standard input is closed, not a JSON response to read")
        }
        let directory = open("/", O_RDONLY | O_CLOEXEC)
        try #require(directory >= 0)
        defer { close(directory) }
        do {
            _ = try DescriptorReader.readAll(directory, name: "standard input", limit: 10)
            Issue.record("read a directory")
        } catch {
            #expect(error.description == "standard input is a directory, not a JSON response to read")
        }
    }
}
