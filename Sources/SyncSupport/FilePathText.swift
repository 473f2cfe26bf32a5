internal import FoundationEssentials

/// File paths as text, the way `NSString`'s path methods treat them, without Foundation's NSString (see
/// ``ThreadCondition`` for why).
package enum FilePathText {
    /// `component` in `directory`: `a/b` + `c` is `a/b/c`; an empty directory gives `component` alone.
    package static func appending(_ component: String, to directory: String) -> String {
        if directory.isEmpty { return component }
        return directory.hasSuffix("/") ? directory + component : directory + "/" + component
    }

    /// The folder that holds `path`: `/a/b` gives `/a`, `/a` gives `/`, `a` gives the empty string (trailing slashes
    /// are not a component: `a/b/` gives `a`).
    package static func directory(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == 0 { return "/" }
        var end = slash
        while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// `path` with its `.` components and repeated slashes removed and each `..` taking the component before it
    /// away (lexically: a symbolic link is not followed); `..` at the top of an absolute path stays at `/`.
    package static func standardized(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        var kept: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == "..", let last = kept.last, last != ".." {
                kept.removeLast()
            } else if component == "..", isAbsolute {
                continue
            } else {
                kept.append(component)
            }
        }
        let joined = kept.joined(separator: "/")
        if isAbsolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The temporary folder: `TMPDIR` when it is set and not empty, else `/tmp`.
    package static var temporaryDirectory: String {
        if let folder = ProcessInfo.processInfo.environment["TMPDIR"], !folder.isEmpty { return folder }
        return "/tmp"
    }
}
