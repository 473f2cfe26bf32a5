internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The header of a WAL database's wal-index (its `-shm` file), mapped read-only, so that whether any connection
/// has committed can be read without a read transaction.
///
/// Opening a read transaction takes a lock on the wal-index (two `fcntl` calls) and SQLite's process-wide mutex for
/// it; the read API asked `PRAGMA data_version` that way on every request, and at 60,000 requests a second the locks
/// were a tenth of its CPU. The header is what SQLite itself reads first, also without a lock
/// (https://sqlite.org/walformat.html#the_wal_index_file_format): 48 bytes written twice, the second copy first,
/// then the first, by every commit; a reader that finds both copies equal holds one consistent header. Its change
/// counter (`iChange`) rises with every commit of every connection, and `mxFrame` names the commit's last frame, so
/// the two together change whenever anything commits.
///
/// The header says nothing for certain that `PRAGMA data_version` cannot confirm, and its users treat it so: a stamp
/// other than the last one confirmed sends them to `data_version`; only an unchanged stamp spares them the lock.
/// A file of another format (a version other than 3007000, a header not yet initialised) gives no stamp at all.
package final class WALIndexHeader: @unchecked Sendable {
    // @unchecked: the mapping is immutable and read only through `stamp()`, whose racing reads of memory another
    // process writes are what the format is designed for (two copies, compared).
    private let base: UnsafeMutableRawPointer
    private static let mappedBytes = 2 * headerBytes
    private static let headerBytes = 48
    /// `WALINDEX_MAX_VERSION`, the only wal-index format there has been since WAL mode exists.
    private static let knownVersion: UInt32 = 3_007_000

    /// Maps the header of the wal-index at `path`; `nil` when the file is missing, shorter than the two headers, or
    /// cannot be mapped.
    ///
    /// The caller keeps a connection to the database open for as long as it reads the header: SQLite empties a
    /// wal-index only when a connection opens it and finds no other connection anywhere, which an open connection
    /// rules out.
    package init?(path: String) {
        #if !_endian(little)
            // The fields are read as little-endian words below.
            return nil
        #endif
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) >= Self.mappedBytes else { return nil }
        guard let mapped = mmap(nil, Self.mappedBytes, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED
        else { return nil }
        base = mapped
    }

    deinit {
        munmap(base, Self.mappedBytes)
    }

    /// The change counter and last commit frame (`iChange << 32 | mxFrame`), or `nil` when the two copies differ (a
    /// commit is writing them) or the header is not one this code knows.
    package func stamp() -> UInt64? {
        // As SQLite's walIndexTryHdr: the first copy, a barrier, the second; writers write them the other way round.
        let first = Self.words(base)
        atomicMemoryFence(ordering: .acquiring)
        let second = Self.words(base + Self.headerBytes)
        guard first == second else { return nil }
        // Native byte order, as SQLite writes it: iVersion (bytes 0–3), iChange (8–11), isInit (12), mxFrame (16–19).
        let version = UInt32(truncatingIfNeeded: first.0)
        let change = UInt32(truncatingIfNeeded: first.1)
        let isInitialised = UInt8(truncatingIfNeeded: first.1 >> 32)
        let lastFrame = UInt32(truncatingIfNeeded: first.2)
        guard version == Self.knownVersion, isInitialised == 1 else { return nil }
        return UInt64(change) << 32 | UInt64(lastFrame)
    }

    private typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    private static func words(_ pointer: UnsafeMutableRawPointer) -> Words {
        (
            pointer.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
            pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            pointer.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
            pointer.loadUnaligned(fromByteOffset: 24, as: UInt64.self),
            pointer.loadUnaligned(fromByteOffset: 32, as: UInt64.self),
            pointer.loadUnaligned(fromByteOffset: 40, as: UInt64.self)
        )
    }
}
