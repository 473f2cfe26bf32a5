/// A parsed TOML document, and where each of its keys and tables is defined.
///
/// ```swift
/// let document = try TOMLReader.read("[server]\nlisten = \"off\"\n")
/// document.root["server"]?.table?["listen"]?.string  // "off"
/// document.line(of: [.key("server"), .key("listen")])  // 2
/// ```
package struct TOMLDocument {
    /// One step of a path: a key, or the position of an element in an array (of tables).
    package enum Segment: Hashable {
        case key(String)
        case index(Int)
    }

    /// The top-level table.
    package var root: TOMLTable

    /// The line of a key or table, else of its nearest ancestor that has one (a key outside the document answers
    /// with the line of the deepest part of its path that exists); nil when no part of the path exists.
    package func line(of path: [Segment]) -> Int? {
        var line: Int?
        var current = TOMLValue.table(root)
        for segment in path {
            switch (segment, current) {
            case (.key(let key), .table(let table)):
                guard let value = table[key] else { return line }
                line = table.line(of: key)
                current = value
            case (.index(let index), .array(let array)):
                guard array.indices.contains(index) else { return line }
                current = array[index]
                if case .table(let table) = current { line = table.line }
            default:
                return line
            }
        }
        return line
    }
}
