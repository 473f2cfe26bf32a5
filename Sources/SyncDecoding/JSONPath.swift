/// A path to a value inside a JSON document: object keys and array indices.
///
/// Written with dots and brackets, as the configuration does: `data.items`, `address.geo.lat`,
/// `items[0].name`; `$` (or the empty string) is the root. A key that is not a plain name
/// (letters, digits, `_`, `-`, `$`, `@`) is written in brackets and quotes: `meta["next-page"]`.
package struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    package enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    package var components: [Component]

    /// The path to the document itself.
    package static let root = JSONPath(components: [])

    package init(components: [Component]) {
        self.components = components
    }

    /// Parses a path as written in the configuration.
    ///
    /// - Throws: ``BodyDecodingError/invalidPath``, naming what is wrong and where.
    package init(parsing text: String) throws(BodyDecodingError) {
        var scalars = Array(text.unicodeScalars)[...]
        if scalars.first == "$" {
            scalars = scalars.dropFirst()
            if scalars.first == "." { scalars = scalars.dropFirst() }
        }
        var components: [Component] = []
        var expectName = !scalars.isEmpty
        while !scalars.isEmpty || expectName {
            if scalars.first == "[" {
                scalars = scalars.dropFirst()
                if scalars.first == "\"" {
                    scalars = scalars.dropFirst()
                    var key = ""
                    while let scalar = scalars.first, scalar != "\"" {
                        key.unicodeScalars.append(scalar)
                        scalars = scalars.dropFirst()
                    }
                    guard scalars.first == "\"", scalars.dropFirst().first == "]" else {
                        throw BodyDecodingError.invalidPath(text, "a quoted key needs a closing \"]")
                    }
                    scalars = scalars.dropFirst(2)
                    components.append(.key(key))
                } else {
                    var digits = ""
                    while let scalar = scalars.first, scalar != "]" {
                        digits.unicodeScalars.append(scalar)
                        scalars = scalars.dropFirst()
                    }
                    guard scalars.first == "]", let index = Int(digits), index >= 0 else {
                        throw BodyDecodingError.invalidPath(text, "an index is a number in brackets, like [0]")
                    }
                    scalars = scalars.dropFirst()
                    components.append(.index(index))
                }
                expectName = false
            } else if scalars.first == "." {
                guard !components.isEmpty, !expectName else {
                    throw BodyDecodingError.invalidPath(text, "a name is missing before a dot")
                }
                scalars = scalars.dropFirst()
                expectName = true
            } else {
                var name = ""
                while let scalar = scalars.first, Self.isNameScalar(scalar) {
                    name.unicodeScalars.append(scalar)
                    scalars = scalars.dropFirst()
                }
                guard !name.isEmpty else {
                    if let scalar = scalars.first {
                        throw BodyDecodingError.invalidPath(
                            text, "unexpected \"\(scalar)\"; quote such keys: [\"key\"]")
                    }
                    throw BodyDecodingError.invalidPath(text, "a name is missing after a dot")
                }
                components.append(.key(name))
                expectName = false
            }
        }
        self.components = components
    }

    /// The path as it is written in the configuration, `$` for the root.
    package var description: String {
        if components.isEmpty { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !key.isEmpty, key.unicodeScalars.allSatisfy(Self.isNameScalar) {
                    if !text.isEmpty { text += "." }
                    text += key
                } else {
                    text += "[\"\(key)\"]"
                }
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The path's first `count` components.
    package func prefix(_ count: Int) -> JSONPath {
        JSONPath(components: Array(components.prefix(count)))
    }

    /// The path appended to another.
    package func appending(_ other: JSONPath) -> JSONPath {
        JSONPath(components: components + other.components)
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", "$", "@": true
        default: false
        }
    }
}
