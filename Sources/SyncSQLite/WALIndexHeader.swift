internal import CSQLite
internal import Synchronization

/// The header of a WAL database's wal-index (its `-shm` file), read where SQLite maps it, so that whether any
/// connection has committed can be read without a read transaction.
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
    // @unchecked: the pointer is never written through, and read only by `stamp()`, whose racing reads of memory
    // other connections write are what the format is designed for (two copies, compared).
    private let base: UnsafeRawPointer
    /// Memory of this object's own (a copy made by a test), freed with it; SQLite's mapping is SQLite's.
    private let ownsMemory: Bool
    private static let headerBytes = 48
    /// `WALINDEX_MAX_VERSION`, the only wal-index format there has been since WAL mode exists.
    private static let knownVersion: UInt32 = 3_007_000
    /// `WALINDEX_PGSZ`: SQLite maps the wal-index in regions of this size.
    private static let regionBytes: Int32 = 32_768

    /// The header as `database` has the wal-index mapped: its first region, from the VFS's `xShmMap`
    /// (https://sqlite.org/c3ref/io_methods.html), which hands back SQLite's own mapping of it. `nil` when the
    /// database has no wal-index (not in WAL mode) or has not read it yet.
    ///
    /// The mapping is SQLite's and lasts while the connection is open, so the caller keeps `database` open for as
    /// long as it reads the header. The file is never opened here: closing a second descriptor of the `-shm` file
    /// would drop every POSIX lock this process holds on it, SQLite's included (https://sqlite.org/howtocorrupt.html,
    /// 2.2), and another process could then empty the file under every connection's mapping.
    package init?(mappedBy database: Database) {
        #if !_endian(little)
            // The fields are read as little-endian words below.
            return nil
        #endif
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(database.handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
            let methods = file?.pointee.pMethods, methods.pointee.iVersion >= 2, let map = methods.pointee.xShmMap
        else { return nil }
        var region: UnsafeMutableRawPointer?
        // Region 0, not extended: what the connection's reads have mapped already.
        guard map(file, 0, Self.regionBytes, 0, &region) == SQLITE_OK, let region else { return nil }
        base = UnsafeRawPointer(region)
        ownsMemory = false
    }

    /// A header made of `bytes` (its two copies, 96 bytes), which no commit will move: for tests of headers that
    /// stand still, are torn or are of another format.
    init(bytes: [UInt8]) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: 2 * Self.headerBytes, alignment: 8)
        let buffer = UnsafeMutableRawBufferPointer(start: copy, count: 2 * Self.headerBytes)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        buffer.copyBytes(from: bytes.prefix(2 * Self.headerBytes))
        base = UnsafeRawPointer(copy)
        ownsMemory = true
    }

    /// The two copies of the header as they are now.
    var bytes: [UInt8] {
        Array(UnsafeRawBufferPointer(start: base, count: 2 * Self.headerBytes))
    }

    deinit {
        if ownsMemory { UnsafeMutableRawPointer(mutating: base).deallocate() }
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

    private static func words(_ pointer: UnsafeRawPointer) -> Words {
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
