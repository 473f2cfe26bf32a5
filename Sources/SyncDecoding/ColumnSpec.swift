/// One configured column: where its value is in a record, what type it holds, whether it is required.
package struct ColumnSpec: Sendable, Hashable {
    /// The column's name, already validated as an SQL identifier.
    package var name: String
    /// The value's path inside one record.
    package var path: JSONPath
    /// The type the value is converted to.
    package var type: ColumnType
    /// A required column that is missing or mistyped rejects the record; an optional one becomes NULL.
    package var required: Bool

    package init(name: String, path: JSONPath, type: ColumnType = .text, required: Bool = false) {
        self.name = name
        self.path = path
        self.type = type
        self.required = required
    }
}
