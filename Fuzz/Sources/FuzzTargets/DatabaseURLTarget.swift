import SyncCore
import SyncPostgres

/// The `database` setting's PostgreSQL URL parser (``PostgresLocation``).
///
/// Input: the URL's text. What is read has a port from 1 to 65535 and names of 1 to 63 bytes; its redacted form
/// (what logs show) holds no password, and reads back as the same location.
enum DatabaseURLTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        guard let location = try? PostgresLocation(parsing: text, environment: [:], processUser: "syncd") else {
            return
        }
        try require((1...65535).contains(location.port), "\(text.debugDescription) gave port \(location.port)")
        for name in [location.user, location.database] {
            try require(
                (1...63).contains(name.utf8.count), "\(text.debugDescription) gave the name \(name.debugDescription)")
        }
        let redacted = location.redacted
        guard let again = try? PostgresLocation(parsing: redacted, environment: [:], processUser: "syncd") else {
            throw FuzzFailure("\(text.debugDescription) redacted to \(redacted.debugDescription), which does not read")
        }
        // The redacted form holds no password (as a URL reads it, wherever its characters happen to appear).
        try require(
            again.password == nil, "\(text.debugDescription) redacted to \(redacted.debugDescription) with a password")
        try require(
            (again.host, again.port, again.user, again.database)
                == (location.host, location.port, location.user, location.database),
            "\(text.debugDescription) redacted to \(redacted.debugDescription), which reads as another location")
    }
}
