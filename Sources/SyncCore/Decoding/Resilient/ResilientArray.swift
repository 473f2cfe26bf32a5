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
    public var problems: [DecodingProblemReport]

    /// Makes a result.
    ///
    /// - Parameters:
    ///   - values: The decoded elements.
    ///   - problems: The problems.
    public init(values: [Element], problems: [DecodingProblemReport]) {
        self.values = values
        self.problems = problems
    }
}

extension ResilientArray: Sendable where Element: Sendable {}

/// An element of a JSON array that did not decode: which one, where inside it, what was expected and found.
///
/// It prints as syncd prints a record problem:
///
/// ```
/// users[id=8] > address.geo.lat (real): found string "tall"
/// users[#3] > email (text): found missing
/// ```
///
/// ## Topics
///
/// - ``index``
/// - ``id``
/// - ``failure``
/// - ``description``
public struct DecodingProblemReport: Sendable, Hashable, CustomStringConvertible {
    /// What the array is called in the report, e.g. `users`; may be empty.
    public var collection: String
    /// The element's position in the array, from 0.
    public var index: Int
    /// The element's `id` member as text, when it has a string or number one.
    public var id: String?
    /// Where inside the element decoding failed, and why.
    public var failure: DecodingFailure

    /// Makes a report.
    ///
    /// - Parameters:
    ///   - collection: What the array is called.
    ///   - index: The element's position.
    ///   - id: The element's `id`, as text.
    ///   - failure: What went wrong inside the element.
    public init(collection: String, index: Int, id: String?, failure: DecodingFailure) {
        self.collection = collection
        self.index = index
        self.id = id
        self.failure = failure
    }

    /// The JSON path inside the element, e.g. `address.geo.lat`.
    public var path: String { failure.path }
    /// What the model expected, e.g. `real`.
    public var expected: String { failure.expected }
    /// What the element held, e.g. `string "tall"`.
    public var found: String { failure.found }

    /// `users[id=8] > address.geo.lat (real): found string "tall"`.
    public var description: String {
        let problem = DecodingProblem(
            recordIndex: index, recordKey: nil, recordLabel: id.map { "id=\($0)" } ?? "#\(index)",
            path: failure.path, column: nil, expected: failure.expected, found: failure.found, action: .rejected)
        return problem.summary(endpoint: collection)
    }
}
