public import Foundation

/// An endpoint paired with how to decode its body, so that a fetch returns a value of your type.
///
/// An endpoint is not tied to one decoding: two resources may read the same endpoint in two ways, and ``map(_:)``
/// derives a resource from another.
///
/// ```swift
/// let users = Resource(endpoint: usersEndpoint, as: [User].self, keyDecodingStrategy: .convertFromSnakeCase)
/// let names = users.map { $0.map(\.name) }
/// let count = Resource(endpoint: usersEndpoint) { data in try JSONDecoder().decode([JSONValue].self, from: data).count }
/// let list = try await client.fetch(names)
/// ```
///
/// ## Topics
///
/// - ``init(endpoint:decode:)``
/// - ``init(endpoint:as:keyDecodingStrategy:dateDecodingStrategy:)``
/// - ``init(endpoint:as:decoder:)``
/// - ``map(_:)``
public struct Resource<Value>: Sendable {
    /// What to request.
    public var endpoint: Endpoint
    /// Turns a 2xx body into the value; what it throws becomes ``APIError/Code/decoding``.
    public var decode: @Sendable (Data) throws -> Value

    /// Pairs an endpoint with a decoding of your own.
    ///
    /// - Parameters:
    ///   - endpoint: What to request.
    ///   - decode: Turns the body into the value.
    public init(endpoint: Endpoint, decode: @escaping @Sendable (Data) throws -> Value) {
        self.endpoint = endpoint
        self.decode = decode
    }

    /// A resource whose value is derived from this one's.
    ///
    /// - Parameter transform: Turns this resource's value into the new one; what it throws becomes
    ///   ``APIError/Code/decoding``.
    /// - Returns: A resource of the same endpoint.
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) throws -> NewValue) -> Resource<NewValue> {
        let decode = self.decode
        return Resource<NewValue>(endpoint: endpoint) { data in try transform(decode(data)) }
    }
}

extension Resource where Value: Decodable & SendableMetatype {
    /// A resource decoded with a `JSONDecoder` using these strategies.
    ///
    /// ```swift
    /// Resource(endpoint: posts, as: [Post].self, keyDecodingStrategy: .convertFromSnakeCase,
    ///          dateDecodingStrategy: .iso8601)
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: What to request.
    ///   - type: The type to decode.
    ///   - keyDecodingStrategy: How JSON keys become coding keys; the default uses them as they are.
    ///   - dateDecodingStrategy: How dates are read; the default is `JSONDecoder`'s.
    public init(
        endpoint: Endpoint,
        as type: Value.Type = Value.self,
        keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys,
        dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    ) {
        self.init(endpoint: endpoint) { data in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = keyDecodingStrategy
            decoder.dateDecodingStrategy = dateDecodingStrategy
            return try decoder.decode(Value.self, from: data)
        }
    }

    /// A resource decoded with this decoder, its strategies and its `userInfo`.
    ///
    /// - Parameters:
    ///   - endpoint: What to request.
    ///   - type: The type to decode.
    ///   - decoder: The decoder; it must not be changed afterwards.
    public init(endpoint: Endpoint, as type: Value.Type = Value.self, decoder: JSONDecoder) {
        self.init(endpoint: endpoint) { data in try decoder.decode(Value.self, from: data) }
    }
}
