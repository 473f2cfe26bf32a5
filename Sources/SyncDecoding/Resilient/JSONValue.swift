/// Any JSON value, to read parts of a document without mirroring it in types.
///
/// Numbers stay exact: an integral number that fits is an `Int64`, any other number a `Double`. Objects do not
/// keep their keys' order.
///
/// ```swift
/// let document = try JSONDecoder().decode(JSONValue.self, from: data)
/// document["items"]?[0]?["name"]?.stringValue         // "first"
/// document[path: "items[0].values[0].name"]?.stringValue
/// ```
///
/// ## Topics
///
/// - ``subscript(path:)``
/// - ``stringValue``
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` when the value is none of JSON's kinds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as it is.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member of an object, or `nil` when this is not an object or has no such key.
    ///
    /// - Parameter key: The member's key.
    public subscript(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element of an array, or `nil` when this is not an array or the index is out of range.
    ///
    /// - Parameter index: The element's position, from 0.
    public subscript(_ index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The value at a path written as syncd's configuration writes them: `items[0].values[0].name`,
    /// `meta["next-page"]`, `$` for this value.
    ///
    /// ```swift
    /// document[path: "address.geo.lat"]?.stringValue
    /// ```
    ///
    /// - Parameter path: The path.
    /// - Returns: The value, or `nil` when the path leads nowhere or is not a valid path.
    public subscript(path path: String) -> JSONValue? {
        guard let parsed = try? JSONPath(parsing: path) else { return nil }
        return self[parsed.components]
    }

    subscript(components: [JSONPath.Component]) -> JSONValue? {
        var value: JSONValue? = self
        for component in components {
            switch component {
            case .key(let key): value = value?[key]
            case .index(let index): value = value?[index]
            }
        }
        return value
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number as an `Int64`, when this is an integral number that fits.
    public var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }
}
