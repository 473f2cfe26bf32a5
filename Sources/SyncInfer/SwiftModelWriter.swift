import SyncCore
import SyncSupport

/// Prints Codable structs for inferred shapes, as quicktype does: one struct per object shape, nested objects as
/// their own structs named after their key, properties in lowerCamelCase with `CodingKeys` where the key differs,
/// optionals for values missing or null in some records, arrays typed when their elements agree.
///
/// Timestamps stay `String` (a `Date` would need a decoding strategy the reader may not use); values whose kinds
/// disagree, or that were always null, are left out with a comment, so that the code compiles and decodes.
package struct SwiftModelWriter {
    private let tree: ShapeTree
    private var usedNames: Set<String> = []
    /// The number to try next after a name already taken, so that many keys with one name stay linear.
    private var nextNumbers: [String: Int] = [:]
    /// The structs to print, node and name, in the order they were named; those before ``printed`` are printed.
    private var pending: [(node: Int, name: String)] = []
    private var printed = 0
    private var output: [String] = []

    private init(tree: ShapeTree) {
        self.tree = tree
    }

    /// The Swift source for the shapes, ending with a newline.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint the shapes belong to; its name names the types.
    package static func render(_ shapes: InferredShapes, endpoint: InferredEndpoint) -> String {
        var writer = SwiftModelWriter(tree: shapes.tree)
        let base = SwiftNaming.typeName(endpoint.name, fallback: "Model")
        var header = ["// Codable models inferred by `syncd infer` from \(URLRedaction.redact(endpoint.url))."]
        if let recordsPath = endpoint.recordsPath {
            let element = SwiftNaming.typeName(SwiftNaming.singular(endpoint.name), fallback: "Record")
            let rootType = writer.type(of: 0, suggested: element == base ? element + "Record" : element, parent: "")
            let listName = base == rootType ? base + "List" : base
            writer.usedNames.insert(listName)
            header.append(
                "// The records are the array at \"\(recordsPath)\" in the response "
                    + "(\(Counting.counted(endpoint.recordCount, "record")) read).")
            header.append("typealias \(listName) = [\(rootType ?? "Never")]")
        } else if let rootType = writer.type(of: 0, suggested: base, parent: "") {
            header.append("// The response is one \(rootType).")
        } else {
            header.append("// The response is not an object: decode it as a single value.")
        }
        while writer.printed < writer.pending.count {
            let (node, name) = writer.pending[writer.printed]
            writer.printed += 1
            writer.writeStruct(node: node, name: name)
        }
        // Keys reach the code only as literals, escaped; this escapes what is left in a comment (a records path).
        return (header + [""] + writer.output).map { ControlCharacters.escaped($0, .code) }.joined(separator: "\n")
    }

    /// The Swift type for the values at a node (without the optional), queueing a struct for objects; nil when
    /// the values have no single type.
    private mutating func type(of index: Int, suggested: String, parent: String) -> String? {
        let node = tree.nodes[index]
        guard node.kindCount == 1, !node.wasCutOff else { return nil }
        if node.integers + node.reals > 0 { return node.reals > 0 ? "Double" : "Int" }
        if node.booleans > 0 { return "Bool" }
        if node.strings > 0 { return "String" }
        if node.objects > 0 {
            let name = uniqueName(suggested, parent: parent)
            pending.append((index, name))
            return name
        }
        guard let element = node.element,
            let elementType = type(of: element, suggested: SwiftNaming.singular(suggested), parent: parent)
        else { return nil }
        return tree.nodes[element].nulls > 0 ? "[\(elementType)?]" : "[\(elementType)]"
    }

    private mutating func uniqueName(_ suggested: String, parent: String) -> String {
        var name = suggested
        if usedNames.contains(name) { name = parent + suggested }
        if usedNames.contains(name) {
            name = Self.numbered(parent + suggested, avoiding: usedNames, next: &nextNumbers)
        }
        usedNames.insert(name)
        return name
    }

    /// `base2`, `base3`… the first not in `taken`, starting after the last number given for `base`.
    private static func numbered(_ base: String, avoiding taken: Set<String>, next: inout [String: Int]) -> String {
        var number = next[base, default: 2]
        while taken.contains(base + "\(number)") { number += 1 }
        next[base] = number + 1
        return base + "\(number)"
    }

    private mutating func writeStruct(node index: Int, name: String) {
        let node = tree.nodes[index]
        var lines = ["struct \(name): Codable, Sendable {"]
        var codingKeys: [String] = []
        var needsCodingKeys = false
        var takenProperties: Set<String> = []
        var nextPropertyNumbers: [String: Int] = [:]
        for child in node.children {
            let childNode = tree.nodes[child]
            let key = childNode.name
            let suggested = SwiftNaming.typeName(key, fallback: "Value")
            guard let type = type(of: child, suggested: suggested, parent: name) else {
                let reason = childNode.kindCount == 0 ? "always null" : "values of different kinds"
                lines.append("    // \(SwiftNaming.literal(key)): \(reason); not decoded")
                continue
            }
            var property = SwiftNaming.propertyName(key)
            if takenProperties.contains(property) {
                property = Self.numbered(property, avoiding: takenProperties, next: &nextPropertyNumbers)
            }
            takenProperties.insert(property)
            let isOptional = childNode.present < node.objects || childNode.nulls > 0
            let comment = type == "String" && childNode.allTimestamps ? "  // RFC 3339 timestamp" : ""
            lines.append("    let \(SwiftNaming.declared(property)): \(type)\(isOptional ? "?" : "")\(comment)")
            if property == key {
                codingKeys.append("        case \(SwiftNaming.declared(property))")
            } else {
                needsCodingKeys = true
                codingKeys.append("        case \(SwiftNaming.declared(property)) = \(SwiftNaming.literal(key))")
            }
        }
        if needsCodingKeys {
            lines.append("")
            lines.append("    enum CodingKeys: String, CodingKey {")
            lines.append(contentsOf: codingKeys)
            lines.append("    }")
        }
        lines.append("}")
        output.append(contentsOf: lines + [""])
    }
}
