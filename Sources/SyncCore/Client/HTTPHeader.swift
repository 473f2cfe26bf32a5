/// One HTTP header field: a name and a value, as sent or as received.
///
/// ```swift
/// let accept = HTTPHeader(name: "Accept-Language", value: "en")
/// ```
public struct HTTPHeader: Sendable, Hashable {
    /// The field name, e.g. `ETag`. Compare names case-insensitively.
    public var name: String
    /// The field value.
    public var value: String

    /// Makes a header field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension [HTTPHeader] {
    /// The value of the first field named `name`, compared case-insensitively.
    ///
    /// ```swift
    /// let etag = response.headers.first(named: "etag")
    /// ```
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when no field has that name.
    public func first(named name: String) -> String? {
        let lowered = name.lowercased()
        return first { $0.name.lowercased() == lowered }?.value
    }
}
