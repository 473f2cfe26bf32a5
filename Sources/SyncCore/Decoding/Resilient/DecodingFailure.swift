/// Where a JSON body did not fit the model: the JSON path, what the model expected and what the body held.
///
/// Its `description` reads as syncd's record problems do after the record:
///
/// ```
/// address.geo.lat (real): found string "tall"
/// ```
///
/// `expected` uses syncd's column types for scalars (`integer`, `real`, `text`, `boolean`), `object` and `array`
/// for containers, `value` for a missing key, and `valid value` when the value has the right kind but the model
/// refused it (a date in another format); ``reason`` then says more.
///
/// ## Topics
///
/// - ``path``
/// - ``expected``
/// - ``found``
/// - ``reason``
public struct DecodingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the value, in syncd's syntax: `address.geo.lat`, `items[2].id`, `$` for the root.
    public var path: String
    /// What the model expected there.
    public var expected: String
    /// What the body held there: `string "tall"`, `number 1.5`, `boolean true`, `object`, `array`, `null` or
    /// `missing`.
    public var found: String
    /// The decoder's own explanation, for logs.
    public var reason: String

    /// Makes a failure.
    ///
    /// - Parameters:
    ///   - path: The JSON path.
    ///   - expected: What was expected.
    ///   - found: What was found.
    ///   - reason: The decoder's explanation.
    public init(path: String, expected: String, found: String, reason: String = "") {
        self.path = path
        self.expected = expected
        self.found = found
        self.reason = reason
    }

    /// `address.geo.lat (real): found string "tall"`.
    public var description: String {
        DecodingProblem.detail(path: path, expected: expected, found: found)
    }
}
