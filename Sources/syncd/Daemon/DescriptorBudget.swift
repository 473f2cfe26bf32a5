#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How many of the process's file descriptors the read API's connections may take: readers must never starve the
/// writer, whose syncs need descriptors of their own (an HTTP connection or two, a spool file, the database's).
enum DescriptorBudget {
    /// Descriptors kept for everything but the read API's connections: the database and its WAL, the read
    /// connections, logs, signals, NIO's own, and four for each sync that may run at once.
    static func reserved(concurrency: Int) -> Int {
        256 + 4 * concurrency
    }

    /// Raises the soft limit on open descriptors to the hard one, as a server that expects many connections should
    /// (systemd gives services a soft 1,024 and a hard 524,288), and returns the soft limit in force.
    static func raiseLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        // Linux refuses a limit above fs.nr_open (1,048,576 by default), whatever the hard limit says.
        let wanted = min(limit.rlim_max, 1 << 20)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The read API's connection cap: `configured`, lowered to what `limit` descriptors leave after the syncs'
    /// share, and at least 16.
    static func connections(configured: Int, concurrency: Int, limit: Int) -> Int {
        min(configured, max(16, limit - reserved(concurrency: concurrency)))
    }
}
