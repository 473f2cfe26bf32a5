internal import SyncCore
import SyncSupport

/// Where a PostgreSQL store is, from the `database` setting: a URL as libpq reads one,
/// `postgresql://[user[:password]@][host][:port][/database][?param=value&…]` (also `postgres://`).
///
/// Parameters: `sslmode` (`disable`, `allow`, `prefer`, `require`, `verify-ca`, `verify-full`), `host` (a name, or
/// a folder that holds the server's Unix socket), `port`, `user`, `dbname`, `application_name` and
/// `connect_timeout` (seconds). What the URL leaves out comes from libpq's variables (`PGHOST`, `PGPORT`, `PGUSER`,
/// `PGDATABASE`, `PGSSLMODE`), then libpq's defaults: the socket folder `/var/run/postgresql`, port 5432, the user
/// this process runs as, a database named after the user, `sslmode=prefer`.
///
/// Unlike libpq, every mode that uses TLS verifies the server's certificate and name against the system's trust
/// store: `require` is `verify-full` here, and `prefer`/`allow` fall back to plain TCP only when the server offers
/// no TLS at all.
package struct PostgresLocation: Sendable, Hashable {
    package enum SSLMode: String, Sendable, Hashable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"

        /// Whether a connection without TLS is refused.
        package var requiresTLS: Bool { self == .require || self == .verifyCA || self == .verifyFull }
    }

    /// A host name or address, or (starting with `/`) the folder of the server's Unix socket.
    package var host: String
    package var port: Int
    package var user: String
    /// A password written in the URL itself; see ``PostgresStore`` for the other sources. Never shown.
    package var password: String?
    package var database: String
    package var sslMode: SSLMode
    package var applicationName: String
    /// Seconds to wait for a connection.
    package var connectTimeout: Int

    /// Whether `setting` names a PostgreSQL store rather than an SQLite file.
    package static func isPostgres(_ setting: String) -> Bool {
        DatabaseLocation.isPostgres(setting)
    }

    /// The longest `database` setting read: a URL is a few hundred bytes at most.
    static let maxLength = 4096
    /// PostgreSQL's identifiers (user and database names) are at most 63 bytes (NAMEDATALEN - 1).
    static let maxNameBytes = 63

    /// Reads a URL.
    ///
    /// - Parameter environment: libpq's variables, for what the URL leaves out.
    /// - Throws: ``PostgresLocationError``: one sentence that names the part of the URL at fault (never the password).
    package init(parsing url: String, environment: [String: String] = [:], processUser: String = "postgres")
        throws(PostgresLocationError)
    {
        guard url.utf8.count <= Self.maxLength else {
            throw PostgresLocationError("is longer than \(Self.maxLength) bytes")
        }
        var rest = Substring(url)
        if rest.hasPrefix("postgresql://") {
            rest = rest.dropFirst("postgresql://".count)
        } else if rest.hasPrefix("postgres://") {
            rest = rest.dropFirst("postgres://".count)
        } else {
            throw PostgresLocationError("does not start with postgresql:// or postgres://")
        }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }

        var user: String?
        var password: String?
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], part: "the user name")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], part: "the password")
            } else {
                user = try Self.decode(userInfo, part: "the user name")
            }
        }

        // host[:port], where an IPv6 host is bracketed: [::1]:5432.
        var host: String?
        var port: Int?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw PostgresLocationError("has an IPv6 host without its closing ]")
            }
            let literal = String(rest[rest.index(after: rest.startIndex)..<close])
            guard Self.isIPv6(literal) else {
                throw PostgresLocationError("has a bracketed host that is not an IPv6 address")
            }
            host = literal
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                port = try Self.port(after.dropFirst())
            } else if !after.isEmpty {
                throw PostgresLocationError("has something after the IPv6 host's ]: only :PORT may follow")
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = try Self.decode(rest[..<colon], part: "the host")
            port = try Self.port(rest[rest.index(after: colon)...])
        } else if !rest.isEmpty {
            host = try Self.decode(rest, part: "the host")
        }
        var database = path.isEmpty ? nil : try Self.decode(path, part: "the database name")

        var sslMode: SSLMode?
        var applicationName = "syncd"
        var connectTimeout = 10
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = try Self.decode(parts.count > 1 ? parts[1] : "", part: "the parameter \(name)")
            switch name {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    throw PostgresLocationError(
                        "has sslmode=\(value); use one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "host": host = value
            case "port": port = try Self.port(Substring(value))
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "application_name": applicationName = value
            case "connect_timeout":
                guard let seconds = Int(value), (1...600).contains(seconds) else {
                    throw PostgresLocationError("has connect_timeout=\(value); use a whole number of seconds, 1 to 600")
                }
                connectTimeout = seconds
            default:
                throw PostgresLocationError(
                    "has the parameter \(name), which syncd does not know (it reads sslmode, host, port, user, dbname, "
                        + "application_name and connect_timeout)")
            }
        }

        if host == nil || host?.isEmpty == true { host = environment["PGHOST"] }
        if port == nil, let text = environment["PGPORT"] { port = try Self.port(Substring(text), from: "PGPORT") }
        if user == nil || user?.isEmpty == true { user = environment["PGUSER"] ?? processUser }
        if database == nil || database?.isEmpty == true { database = environment["PGDATABASE"] ?? user }
        if sslMode == nil, let text = environment["PGSSLMODE"] {
            guard let mode = SSLMode(rawValue: text) else {
                throw PostgresLocationError("has PGSSLMODE=\(text), not a mode")
            }
            sslMode = mode
        }
        self.host = (host?.isEmpty ?? true) ? "/var/run/postgresql" : host ?? ""
        self.port = port ?? 5432
        self.user = user ?? processUser
        self.password = password
        self.database = database ?? self.user
        self.sslMode = sslMode ?? .prefer
        self.applicationName = applicationName
        self.connectTimeout = connectTimeout
        if self.host.contains(",") {
            throw PostgresLocationError(
                "names several hosts; syncd connects to one (put a proxy or a service name before several)")
        }
        // A host name is at most 255 bytes (DNS); a socket folder leaves room for `/.s.PGSQL.PORT` in sun_path's 108.
        let hostLimit = isUnixSocket ? 90 : 255
        guard self.host.utf8.count <= hostLimit else {
            throw PostgresLocationError("has a host longer than \(hostLimit) bytes")
        }
        guard self.applicationName.utf8.count <= Self.maxNameBytes else {
            throw PostgresLocationError("has an application_name longer than \(Self.maxNameBytes) bytes")
        }
        for (name, value) in [("user name", self.user), ("database name", self.database)] {
            guard !value.isEmpty, value.utf8.count <= Self.maxNameBytes, !value.utf8.contains(0) else {
                throw PostgresLocationError("has a \(name) that is empty or longer than \(Self.maxNameBytes) bytes")
            }
        }
    }

    /// Whether ``host`` is a Unix socket's folder.
    package var isUnixSocket: Bool { host.hasPrefix("/") }

    /// The URL as logs and `syncd status` show it: without a password, and read back as the same location.
    package var redacted: String {
        let shownHost = isUnixSocket ? "" : (Self.isIPv6(host) ? "[\(host)]" : Self.encode(host))
        var text = "postgresql://\(Self.encode(user))@\(shownHost):\(port)/\(Self.encode(database))"
        if isUnixSocket { text += "?host=\(Self.encode(host, keeping: UInt8(ascii: "/")))" }
        return text
    }

    /// Whether `host` is an IPv6 address, which a URL writes in brackets: hex digits, colons and dots only.
    private static func isIPv6(_ host: String) -> Bool {
        host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    /// Percent-encodes all but RFC 3986's unreserved characters and `kept`.
    private static func encode(_ text: String, keeping kept: UInt8? = nil) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), kept:
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                result += "%"
                result.unicodeScalars.append(digits[Int(byte >> 4)])
                result.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return result
    }

    private static func port(_ text: Substring, from source: String = "the URL") throws(PostgresLocationError) -> Int {
        guard text.utf8.count <= 5, let port = Int(text), (1...65535).contains(port) else {
            // Not echoed: `user:secret/db` without its @ reads the password as the port.
            throw PostgresLocationError("has a port in \(source) that is not a number from 1 to 65535")
        }
        return port
    }

    /// Percent-decodes one part of the URL; `part` names it in the error.
    private static func decode(_ text: Substring, part: String) throws(PostgresLocationError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(ASCIIDigits.hexValue),
                let low = iterator.next().flatMap(ASCIIDigits.hexValue)
            else { throw PostgresLocationError("has a % in \(part) that is not followed by two hex digits") }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self), !decoded.utf8.contains(0) else {
            throw PostgresLocationError("has \(part) that is not UTF-8 text")
        }
        return decoded
    }
}

/// A `database` URL that cannot be read: the sentence says what is wrong, after "the database URL".
package struct PostgresLocationError: Error, Sendable, Hashable, CustomStringConvertible {
    package var reason: String

    package init(_ reason: String) {
        self.reason = reason
    }

    package var description: String { "the PostgreSQL database URL \(reason)" }
}
