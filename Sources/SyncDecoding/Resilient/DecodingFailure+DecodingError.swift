package import FoundationEssentials

extension DecodingFailure {
    /// The failure for what decoding `body` threw. The body is read a second time, as ``JSONValue``, to say what was
    /// found; that costs nothing on the successful path.
    package init(_ error: any Error, in body: Data) {
        // A body that is not JSON has no value to describe: that is the failure, whatever the model's decoding said.
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            self.init(path: "$", expected: "JSON", found: "invalid JSON", reason: String(describing: error))
            return
        }
        self.init(error, in: root, droppingFirst: 0)
    }

    /// The failure for what decoding the value `root` threw, with a path relative to `root`: the first
    /// `droppingFirst` keys of the error's coding path lead to `root`.
    init(_ error: any Error, in root: JSONValue?, droppingFirst prefix: Int) {
        guard let error = error as? DecodingError else {
            self.init(
                path: "$", expected: "valid value", found: root?.problemDescription ?? JSONValueDescription.missing,
                reason: String(describing: error))
            return
        }
        switch error {
        case .typeMismatch(let type, let context):
            let (path, value) = Self.locate(context.codingPath.dropFirst(prefix), in: root)
            self.init(
                path: path, expected: Self.expectation(for: type),
                found: value?.problemDescription ?? JSONValueDescription.missing, reason: context.debugDescription)
        case .valueNotFound(let type, let context):
            let (path, value) = Self.locate(context.codingPath.dropFirst(prefix), in: root)
            self.init(
                path: path, expected: Self.expectation(for: type),
                found: value?.problemDescription ?? "null", reason: context.debugDescription)
        case .keyNotFound(let key, let context):
            let (path, _) = Self.locate(context.codingPath.dropFirst(prefix) + [key], in: root)
            self.init(
                path: path, expected: "value", found: JSONValueDescription.missing, reason: context.debugDescription)
        case .dataCorrupted(let context):
            // Foundation on Linux gives no coding path for a value a strategy refused (a date), so such a failure
            // points at the element; `reason` names what was wrong.
            let (path, value) = Self.locate(context.codingPath.dropFirst(prefix), in: root)
            self.init(
                path: path, expected: "valid value",
                found: value?.problemDescription ?? JSONValueDescription.missing, reason: context.debugDescription)
        @unknown default:
            self.init(path: "$", expected: "valid value", found: "invalid JSON", reason: String(describing: error))
        }
    }

    /// The JSON path of a coding path and the value there. A key strategy such as `.convertFromSnakeCase` puts
    /// the model's key (`firstName`) in the coding path; the body's key (`first_name`) is looked for too.
    private static func locate(
        _ codingPath: some Collection<any CodingKey>, in root: JSONValue?
    ) -> (path: String, value: JSONValue?) {
        var components: [JSONPath.Component] = []
        var value = root
        for key in codingPath {
            if let index = key.intValue, case .array = value {
                components.append(.index(index))
                value = value?[index]
            } else {
                let name = key.stringValue
                let snake = snakeCase(name)
                if value?[name] == nil, snake != name, let member = value?[snake] {
                    components.append(.key(snake))
                    value = member
                } else {
                    components.append(.key(name))
                    value = value?[name]
                }
            }
        }
        return (JSONPath(components: components).description, value)
    }

    /// syncd's name for what a Swift type reads.
    private static func expectation(for type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "integer"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: "real"
        case is String.Type, is Substring.Type: "text"
        case is Bool.Type: "boolean"
        case is [Any].Type: "array"
        case is [String: Any].Type: "object"
        default: "\(type)"
        }
    }

    /// `firstName` → `first_name`, as `.convertFromSnakeCase` reads it back.
    private static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                if !result.isEmpty { result.append("_") }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension DecodingFailure {
    /// The failure of element `index` of the array called `collection`, whose JSON is `data` and which threw `error`:
    /// its `id` and what it held are read from the element itself.
    package init(collection: String, index: Int, element data: Data, error: any Error) {
        let element = try? JSONDecoder().decode(JSONValue.self, from: data)
        let failure =
            element.map { DecodingFailure(error, in: $0, droppingFirst: 0) } ?? DecodingFailure(error, in: data)
        self = failure.inElement(index, id: Self.id(of: element), of: collection)
    }

    /// An element's `id` member as text, when it has a string or number one.
    static func id(of element: JSONValue?) -> String? {
        switch element?["id"] {
        case .integer(let value): String(value)
        case .double(let value): "\(value)"
        case .string(let value): value
        default: nil
        }
    }
}
