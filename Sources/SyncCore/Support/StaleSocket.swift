#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket file of a `unix:` listen that a previous run left behind.
///
/// In SyncCore rather than beside the read server: SyncServe's first files import NIO before the C library, and in a
/// whole-module (release) build `stat` was then taken for the declaration of NIO's C module, which includes
/// `<sys/stat.h>` too, and refused by MemberImportVisibility. SyncServe names no `stat` at all now.
package enum StaleSocket {
    /// Removes the socket file at `path`, which would make the bind fail; anything else at that path is left alone
    /// (the bind then fails, saying so).
    package static func remove(at path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return }
        unlink(path)
    }
}
