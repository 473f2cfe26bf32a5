public import FoundationEssentials

/// Decodes a JSON array of ordinary `Decodable` models, keeping every element that decodes and reporting each
/// one that does not, instead of failing the whole array.
///
/// ```swift
/// struct User: Decodable { let id: Int; let address: Address }
///
/// let result = try ResilientDecoder().decodeArray(User.self, from: data, named: "users")
/// result.values      // the users that decoded
/// for problem in result.problems { print(problem) }
/// // users[id=8] > address.geo.lat (real): found string "tall"
/// ```
///
/// Each problem names the element by its `id` member when it has a string or number one, by its index (`#3`)
/// otherwise, then the JSON path inside the element, what the model expected and what was there: the same words
/// as syncd's own record problems.
///
/// ## Topics
///
/// - ``init(decoder:)``
/// - ``decodeArray(_:from:named:)``
/// - ``ResilientArray``
public struct ResilientDecoder {
    /// The decoder each element goes through, with its strategies and `userInfo`.
    public var decoder: JSONDecoder

    /// Makes a resilient decoder.
    ///
    /// - Parameter decoder: The decoder for the elements; its strategies and `userInfo` apply.
    public init(decoder: JSONDecoder = JSONDecoder()) {
        self.decoder = decoder
    }

    /// Decodes the array at the body's root, element by element.
    ///
    /// - Parameters:
    ///   - type: The element type, an ordinary `Decodable` model.
    ///   - data: The JSON body; its root must be an array.
    ///   - name: What the problems call the array, e.g. `users`; none by default.
    /// - Returns: The elements that decoded, in order, and a problem for each that did not.
    /// - Throws: ``DecodingFailure`` when the body is not JSON or its root is not an array.
    public func decodeArray<Element: Decodable>(
        _ type: Element.Type,
        from data: Data,
        named name: String = ""
    ) throws(DecodingFailure) -> ResilientArray<Element> {
        let elements: [Salvaged<Element>]
        do {
            elements = try decoder.decode([Salvaged<Element>].self, from: data)
        } catch {
            throw DecodingFailure(error, in: data)
        }
        var result = ResilientArray<Element>(values: [], problems: [])
        result.values.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            switch element.outcome {
            case .success(let value):
                result.values.append(value)
            case .failure(let failure):
                result.problems.append(failure.inElement(index, id: element.id, of: name))
            }
        }
        return result
    }
}

/// One element: its value, or why it has none and the `id` that names it.
private struct Salvaged<Element: Decodable>: Decodable {
    var outcome: Result<Element, DecodingFailure>
    var id: String?

    init(from decoder: any Decoder) throws {
        do {
            outcome = .success(try Element(from: decoder))
        } catch {
            // Read again as a plain value only to describe what was found; an element that is not even that
            // (impossible in a parsed array) is described as missing.
            let element = try? decoder.singleValueContainer().decode(JSONValue.self)
            outcome = .failure(DecodingFailure(error, in: element, droppingFirst: decoder.codingPath.count))
            id = DecodingFailure.id(of: element)
        }
    }
}
