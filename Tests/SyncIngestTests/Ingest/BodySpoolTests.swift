import Foundation
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP
@testable import SyncIngest

/// A run's body waits in a spool between its download and its transaction: in memory while it is small, in an
/// unlinked file once it outgrows ``BodySpool/memoryLimit``. Either way it reads back byte for byte.
@Suite("sync: the body spool, in memory and on disk")
struct BodySpoolTests {
    @Test("a small body stays in memory and reads back whole, in parts, and after a truncation")
    func inMemory() throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        let bytes = bytePattern(10_000)
        try spool.append(ByteBuffer(bytes: bytes[..<4000]))
        try spool.append(ByteBuffer(bytes: bytes[4000...]))
        #expect(spool.isInMemory)
        #expect(spool.count == 10_000)
        #expect(try readSpool(spool, 0..<10_000) == bytes)
        #expect(try readSpool(spool, 3990..<4010) == Array(bytes[3990..<4010]))
        #expect(try readSpool(spool, 50..<50).isEmpty)
        // A page fetched again starts where the failed attempt did.
        spool.truncate(to: 4000)
        try spool.append(ByteBuffer(bytes: [1, 2, 3]))
        #expect(try readSpool(spool, 0..<4003) == Array(bytes[..<4000]) + [1, 2, 3])
        let pages = BodySpool(directory: directory.path)
        try pages.append(ByteBuffer(string: "abcabc"))
        #expect(try pages.holdsSameBytes(0..<3, 3..<6))
        #expect(try !pages.holdsSameBytes(0..<3, 2..<5))
    }

    @Test("a body that outgrows memory moves to a file on the way, and every byte before and after reads back")
    func spills() throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        let total = BodySpool.memoryLimit + 100_000
        let bytes = bytePattern(total)
        var offset = 0
        // Chunks of an odd size, so that one of them crosses the limit.
        while offset < total {
            let end = min(total, offset + 7001)
            try spool.append(ByteBuffer(bytes: bytes[offset..<end]))
            offset = end
        }
        #expect(!spool.isInMemory)
        #expect(spool.count == total)
        #expect(try readSpool(spool, 0..<total) == bytes)
        let across = (BodySpool.memoryLimit - 10)..<(BodySpool.memoryLimit + 10)
        #expect(try readSpool(spool, across) == Array(bytes[across]))
        // The file is unlinked at once: nothing is left in the folder, even while the spool lives.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        spool.truncate(to: 100)
        try spool.append(ByteBuffer(bytes: [9]))
        #expect(try readSpool(spool, 0..<101) == Array(bytes[..<100]) + [9])
    }

    @Test("the file takes whole blocks only; the rest waits in memory, and a truncation into the file realigns them")
    func blocks() throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        let block = BodySpool.memoryLimit
        let bytes = bytePattern(3 * block + 5000)
        // Pages of about 40 KiB, as a paged body arrives.
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 40_961)
            try spool.append(ByteBuffer(bytes: bytes[offset..<end]))
            #expect(spool.fileByteCount % block == 0)
            #expect(spool.count - spool.fileByteCount < block)
            offset = end
        }
        #expect(spool.fileByteCount == 3 * block)
        #expect(try readSpool(spool, 0..<bytes.count) == bytes)
        // Across the last block's end: from the file, then from memory.
        let across = (3 * block - 7)..<(3 * block + 7)
        #expect(try readSpool(spool, across) == Array(bytes[across]))
        // A page fetched again from inside the file: what follows is written anew, and the blocks line up again.
        let cut = block + 1234
        spool.truncate(to: cut)
        #expect(spool.count == cut && spool.fileByteCount == cut)
        let again = bytePattern(2 * block, from: 77)
        try spool.append(ByteBuffer(bytes: again[..<100]))
        try spool.append(ByteBuffer(bytes: again[100...]))
        #expect(spool.fileByteCount == 3 * block)
        #expect(try readSpool(spool, 0..<(cut + 2 * block)) == Array(bytes[..<cut]) + again)
        #expect(throws: FetchError.self) { try readSpool(spool, 0..<(cut + 2 * block + 1)) }
    }

    @Test("one buffer read into part after part, larger and smaller, hands over each part's bytes and no others")
    func reusedBuffer() throws {
        let directory = try TemporaryDirectory()
        let small = BodySpool(directory: directory.path)
        let large = BodySpool(directory: directory.path)
        let total = BodySpool.readSize + 300_000
        let bytes = bytePattern(total)
        try small.append(ByteBuffer(bytes: bytes[..<50_000]))
        try large.append(ByteBuffer(bytes: bytes))
        #expect(small.isInMemory && !large.isInMemory)
        let parts = [0..<10, 10..<40_000, 40_000..<40_001, 40_001..<50_000, 5..<5]
        let fileParts = parts + [0..<total, 100..<200, 7..<(BodySpool.readSize + 9), (total - 3)..<total]
        for (spool, ranges) in [(small, parts), (large, fileParts)] {
            // Stale bytes in the buffer from before would show in a chunk that is too long.
            var buffer = [UInt8](repeating: 0xEE, count: 64)
            for range in ranges {
                var read: [UInt8] = []
                try spool.forEachChunk(in: range, reusing: &buffer) { chunk in
                    #expect(chunk.count <= BodySpool.readSize)
                    read.append(contentsOf: chunk)
                }
                #expect(read == Array(bytes[range]), "\(range)")
                #expect(buffer.count <= BodySpool.readSize)
            }
        }
    }

    @Test("asking for more than was written fails with one sentence, in memory and on disk")
    func beyondTheEnd() throws {
        let directory = try TemporaryDirectory()
        let small = BodySpool(directory: directory.path)
        try small.append(ByteBuffer(bytes: [1, 2, 3]))
        let error = #expect(throws: FetchError.self) { try readSpool(small, 0..<4) }
        #expect(error?.description.contains("cannot read the body back") == true)
        let large = BodySpool(directory: directory.path)
        try large.append(ByteBuffer(bytes: bytePattern(BodySpool.memoryLimit + 1)))
        #expect(throws: FetchError.self) { try readSpool(large, 0..<(BodySpool.memoryLimit + 2)) }
    }

    @Test("a folder that takes no file holds small bodies still; a large one fails, naming the folder")
    func noFolder() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("not-there")
        let spool = BodySpool(directory: missing)
        try spool.append(ByteBuffer(bytes: bytePattern(1000)))
        #expect(try readSpool(spool, 0..<1000) == bytePattern(1000))
        let error = #expect(throws: FetchError.self) {
            try spool.append(ByteBuffer(bytes: bytePattern(BodySpool.memoryLimit)))
        }
        #expect(error?.description == "cannot create a temporary file in \(missing) for the body")
        #expect(spool.count == 1000, "the failed chunk is not counted")
    }
}
