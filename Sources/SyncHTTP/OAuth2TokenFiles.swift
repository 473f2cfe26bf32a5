internal import Crypto
import SyncSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What syncd keeps of one OAuth2 token source in its state folder, in files named after a hash of the source's
/// identity (``Credential/OAuth2/identity``, which holds no secret): `oauth2-<hash>.refresh-token`, the refresh token
/// the server rotated to, and `oauth2-<hash>.times`, when the token was last renewed and when it expires (for `syncd
/// status` and `/v1/endpoints`; never the token). Each is written atomically — a temporary file, fsync, rename, fsync
/// of the folder — with mode 0600, so that a crash leaves the old file or the new one, never a part.
///
/// A kept refresh token records the SHA-256 of the initial one it descends from: when the operator puts a new initial
/// token in the configured file (after `invalid_grant`), the kept one no longer descends from it and is not used.
package struct OAuth2TokenFiles: Sendable {
    /// The state folder.
    package var directory: String
    /// `oauth2-` and the first 32 hex digits of the identity's SHA-256.
    package var stem: String

    package init(directory: String, identity: String) {
        self.directory = directory
        self.stem = "oauth2-" + Self.hex(SHA256.hash(data: Array(identity.utf8))).prefix(32)
    }

    /// syncd's state folder: systemd's `$STATE_DIRECTORY` (its first folder), else `fallback` (the database's folder).
    package static func stateDirectory(environment: [String: String], fallback: String) -> String {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return String(state)
        }
        return fallback
    }

    package var refreshTokenPath: String { directory + "/" + stem + ".refresh-token" }
    package var timesPath: String { directory + "/" + stem + ".times" }

    /// The refresh token kept for this source, when it was rotated from `initial`; nil when none was kept, when it
    /// cannot be read, or when it descends from another initial token.
    func refreshToken(descendingFrom initial: String) -> String? {
        guard let text = try? ConfigurationFile.readText(atPath: refreshTokenPath, limit: 64 << 10) else {
            return nil  // none kept yet (or unreadable): the configured token is the one to use
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == Self.header, lines[1] == "origin " + Self.fingerprint(initial),
            !lines[2].isEmpty, lines[2].utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E })
        else { return nil }
        return String(lines[2])
    }

    /// Keeps `token`, rotated from the chain that started at `initial`, durably.
    ///
    /// - Throws: ``OAuth2TokenFileError`` when it cannot be written whole.
    func keep(refreshToken token: String, descendingFrom initial: String) throws(OAuth2TokenFileError) {
        let text = Self.header + "\norigin " + Self.fingerprint(initial) + "\n" + token + "\n"
        try Self.writeAtomically(Array(text.utf8), to: refreshTokenPath)
    }

    /// Records when the token was renewed and when it expires, seconds since 1970.
    func record(renewedAt: Double, expiresAt: Double) throws(OAuth2TokenFileError) {
        let text = "renewed_at \(Timestamp.format(renewedAt))\nexpires_at \(Timestamp.format(expiresAt))\n"
        try Self.writeAtomically(Array(text.utf8), to: timesPath)
    }

    /// When the token was last renewed and when it expires, as RFC 3339 timestamps; nil before the first renewal.
    package func times() -> (renewedAt: String, expiresAt: String)? {
        guard let text = try? ConfigurationFile.readText(atPath: timesPath, limit: 4096) else {
            return nil  // no token renewed yet, or not in this folder
        }
        var values: [Substring: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, Timestamp.parse(String(parts[1])) != nil else { continue }
            values[parts[0]] = String(parts[1])
        }
        guard let renewed = values["renewed_at"], let expires = values["expires_at"] else { return nil }
        return (renewed, expires)
    }

    private static let header = "syncd oauth2 refresh token 1"

    private static func fingerprint(_ token: String) -> String { hex(SHA256.hash(data: Array(token.utf8))) }

    private static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// Writes `bytes` to `path` so that a crash leaves the old file or the new one: a temporary file beside it
    /// (mode 0600), fsync, rename over `path`, fsync of the folder (which makes the rename durable).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(OAuth2TokenFileError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .init(path: path, errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                write(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw .init(path: path, code)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let code = errno
            close(descriptor)
            unlink(temporary)
            throw .init(path: path, code)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .init(path: path, code)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw .init(path: path, errno) }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw .init(path: path, errno) }
    }
}

/// A state file that could not be written, with its path and the system's reason (never its contents).
struct OAuth2TokenFileError: Error, CustomStringConvertible {
    var path: String
    var code: Int32

    init(path: String, _ code: Int32) {
        self.path = path
        self.code = code
    }

    var description: String { "\(path) cannot be written: \(String(cString: strerror(code)))" }
}
