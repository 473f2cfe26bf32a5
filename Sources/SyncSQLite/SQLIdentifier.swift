/// A name from the configuration that is safe to use as an SQL identifier: `^[a-z][a-z0-9_]{0,62}$`.
///
/// Validation happens once, when the configuration is built; ``quoted`` is what goes into SQL
/// (double quotes, inner quotes doubled — none can occur after validation, but quoting never
/// relies on that).
package struct SQLIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible {
    package let name: String

    /// Validates a name.
    ///
    /// - Throws: ``SQLiteError/invalidName`` when the name does not match `^[a-z][a-z0-9_]{0,62}$`.
    package init(validating name: String) throws(SQLiteError) {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), bytes.count <= 63,
            bytes.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "_")
            })
        else {
            throw .invalidName(name)
        }
        self.name = name
    }

    /// The identifier in double quotes, ready for SQL.
    package var quoted: String { Self.quote(name) }

    package var description: String { name }

    package static func < (lhs: SQLIdentifier, rhs: SQLIdentifier) -> Bool { lhs.name < rhs.name }

    /// Double-quotes any name, doubling inner quotes. For names syncd itself chose or already validated.
    ///
    /// A name without quotes, which every validated one is, is not searched and rebuilt: each run builds its
    /// statements' SQL, and `replacing` was 3% of the writer's time in a cold start of 10,000 endpoints.
    package static func quote(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacing("\"", with: "\"\"") + "\""
    }
}
