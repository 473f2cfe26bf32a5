/// What ``ResilientDecoder/decodeArray(_:from:named:)`` decoded: the good elements and a problem for each bad one.
///
/// ```swift
/// let result = try ResilientDecoder().decodeArray(User.self, from: data, named: "users")
/// print("\(result.values.count) users, \(result.problems.count) skipped")
/// ```
public struct ResilientArray<Element> {
    /// The elements that decoded, in their order in the body.
    public var values: [Element]
    /// One problem for each element that did not decode, in order.
    public var problems: [DecodingFailure]

    /// Makes a result.
    ///
    /// - Parameters:
    ///   - values: The decoded elements.
    ///   - problems: The problems.
    public init(values: [Element], problems: [DecodingFailure]) {
        self.values = values
        self.problems = problems
    }
}

extension ResilientArray: Sendable where Element: Sendable {}
