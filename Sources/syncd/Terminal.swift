import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Standard output and error, written without buffering surprises.
struct Terminal: Sendable {
    let descriptor: Int32

    static let standardOutput = Terminal(descriptor: STDOUT_FILENO)
    static let standardError = Terminal(descriptor: STDERR_FILENO)

    var isTTY: Bool { isatty(descriptor) == 1 }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(
                    descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written <= 0 {
                    if written < 0, errno == EINTR { continue }
                    return  // a closed pipe: nothing more can be said
                }
                offset += written
            }
        }
    }
}

extension Terminal {
    /// The terminal's width in columns; 80 when it does not say (not a terminal, or a width of 0).
    var columns: Int {
        var size = winsize()
        let result = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        return result == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }
}
