/// Where JSON did not fit the model: in which element of an array, at which JSON path, what the model expected and
/// what the JSON held. It is the one shape of a record problem in SyncCore: ``ResilientDecoder``'s skipped elements,
/// the cached records ``SyncCache`` could not decode, and the failure in an ``APIError``.
///
/// Its `description` reads as syncd's record problems do, with the element first when there is one:
///
/// ```
/// users[id=8] > address.geo.lat (real): found string "tall"
/// users[#3] > email (text): found missing
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
/// - ``collection``
/// - ``index``
/// - ``id``
public struct DecodingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the value, in syncd's syntax: `address.geo.lat`, `items[2].id`, `$` for the root; inside the
    /// element when ``index`` is set.
    public var path: String
    /// What the model expected there.
    public var expected: String
    /// What the body held there: `string "tall"`, `number 1.5`, `boolean true`, `object`, `array`, `null` or
    /// `missing`.
    public var found: String
    /// The decoder's own explanation, for logs.
    public var reason: String
    /// What the array is called, e.g. `users`, when the failure is one element's; may be empty.
    public var collection: String
    /// The element's position in its array, from 0; nil when the failure is not one element's.
    public var index: Int?
    /// The element's `id` member as text, when it has a string or number one.
    public var id: String?

    /// Makes a failure.
    ///
    /// - Parameters:
    ///   - path: The JSON path.
    ///   - expected: What was expected.
    ///   - found: What was found.
    ///   - reason: The decoder's explanation.
    ///   - collection: What the array is called, when the failure is one element's.
    ///   - index: The element's position in its array.
    ///   - id: The element's `id`, as text.
    public init(
        path: String, expected: String, found: String, reason: String = "", collection: String = "",
        index: Int? = nil, id: String? = nil
    ) {
        self.path = path
        self.expected = expected
        self.found = found
        self.reason = reason
        self.collection = collection
        self.index = index
        self.id = id
    }

    /// This failure, as element `index` (called `id`) of the array called `collection`.
    func inElement(_ index: Int, id: String?, of collection: String) -> DecodingFailure {
        var failure = self
        failure.index = index
        failure.id = id
        failure.collection = collection
        return failure
    }

    /// `users[id=8] > address.geo.lat (real): found string "tall"`, or without the element
    /// `address.geo.lat (real): found string "tall"`.
    public var description: String {
        guard let index else { return DecodingProblem.detail(path: path, expected: expected, found: found) }
        let problem = DecodingProblem(
            recordIndex: index, recordKey: nil, recordLabel: id.map { "id=\($0)" } ?? "#\(index)",
            path: path, column: nil, expected: expected, found: found, action: .rejected)
        return problem.summary(endpoint: collection)
    }
}
