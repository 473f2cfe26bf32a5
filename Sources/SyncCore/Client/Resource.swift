public import FoundationEssentials

/// A request paired with how to decode its body, so that a fetch returns a value of your type.
///
/// A request is not tied to one decoding: two resources may read the same request in two ways, and ``map(_:)``
/// derives a resource from another.
///
/// ```swift
/// let users = Resource(request: usersRequest, as: [User].self, keyDecodingStrategy: .convertFromSnakeCase)
/// let names = users.map { $0.map(\.name) }
/// let count = Resource(request: usersRequest) { data in try JSONDecoder().decode([JSONValue].self, from: data).count }
/// let list = try await client.fetch(names)
/// ```
///
/// ## Topics
///
/// - ``init(request:decode:)``
/// - ``init(request:as:keyDecodingStrategy:dateDecodingStrategy:)``
/// - ``init(request:as:decoder:)``
/// - ``map(_:)``
public struct Resource<Value>: Sendable {
    /// What to request.
    public var request: APIRequest
    /// Turns a 2xx body into the value; what it throws becomes ``APIError/Code/decoding``.
    public var decode: @Sendable (Data) throws -> Value

    /// Pairs an request with a decoding of your own.
    ///
    /// - Parameters:
    ///   - request: What to request.
    ///   - decode: Turns the body into the value.
    public init(request: APIRequest, decode: @escaping @Sendable (Data) throws -> Value) {
        self.request = request
        self.decode = decode
    }

    /// A resource whose value is derived from this one's.
    ///
    /// - Parameter transform: Turns this resource's value into the new one; what it throws becomes
    ///   ``APIError/Code/decoding``.
    /// - Returns: A resource of the same request.
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) throws -> NewValue) -> Resource<NewValue> {
        let decode = self.decode
        return Resource<NewValue>(request: request) { data in try transform(decode(data)) }
    }
}

extension Resource where Value: Decodable & SendableMetatype {
    /// A resource decoded with a `JSONDecoder` using these strategies.
    ///
    /// ```swift
    /// Resource(request: posts, as: [Post].self, keyDecodingStrategy: .convertFromSnakeCase,
    ///          dateDecodingStrategy: .iso8601)
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to request.
    ///   - type: The type to decode.
    ///   - keyDecodingStrategy: How JSON keys become coding keys; the default uses them as they are.
    ///   - dateDecodingStrategy: How dates are read; the default is `JSONDecoder`'s.
    public init(
        request: APIRequest,
        as type: Value.Type = Value.self,
        keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys,
        dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    ) {
        self.init(request: request) { data in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = keyDecodingStrategy
            decoder.dateDecodingStrategy = dateDecodingStrategy
            return try decoder.decode(Value.self, from: data)
        }
    }

    /// A resource decoded with this decoder, its strategies and its `userInfo`.
    ///
    /// - Parameters:
    ///   - request: What to request.
    ///   - type: The type to decode.
    ///   - decoder: The decoder; it must not be changed afterwards.
    public init(request: APIRequest, as type: Value.Type = Value.self, decoder: JSONDecoder) {
        self.init(request: request) { data in try decoder.decode(Value.self, from: data) }
    }
}
