/// A document that is not valid TOML: where, and one sentence on what was expected.
package struct TOMLSyntaxError: Error, Equatable, CustomStringConvertible {
    /// 1-based.
    package var line: Int
    /// 1-based, in characters (Unicode scalars) from the start of the line.
    package var column: Int
    package var message: String

    package var description: String { "\(line):\(column): \(message)" }
}
