import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Standard input, output and error kept open for the whole run. A process started with one closed (`syncd infer -
/// <&-`) would hand its number to the next descriptor it opens (an event loop's, a file's): reading standard input
/// would read that, and printing would write into it. So each closed one is opened on /dev/null first, and noted.
enum StandardDescriptors {
    /// Whether standard input was closed when the process started; the first use opens the closed ones on /dev/null,
    /// which ``Syncd`` does before anything else.
    static let inputWasClosed: Bool = {
        var inputWasClosed = false
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            guard fcntl(descriptor, F_GETFD) == -1, errno == EBADF else { continue }
            // open(2) takes the lowest free number: this one, as those below it are open by now.
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor == STDIN_FILENO { inputWasClosed = true }
        }
        return inputWasClosed
    }()
}
