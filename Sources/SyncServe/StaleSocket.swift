// The C library alone: in a file that also imports NIO, `stat` was sometimes found as NIO's C module's declaration
// (a header both include), which MemberImportVisibility then refused (a clean build failed, an incremental one did
// not).
#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The socket file of a `unix:` listen that a previous run left behind.
enum StaleSocket {
    /// Removes the socket file at `path`, which would make the bind fail; anything else at that path is left alone
    /// (the bind then fails, saying so).
    static func remove(at path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return }
        unlink(path)
    }
}
