package import SyncDecoding

/// Stored column values written back as JSON, the way their column type reads: a boolean column gives
/// `true`/`false` rather than SQLite's 0/1, a `json` column its JSON as stored, a timestamp a string.
package enum ColumnJSON {
    /// One value as a JSON literal.
    package static func literal(_ value: ColumnValue, type: ColumnType) -> String {
        switch (value, type) {
        case (.null, _): "null"
        case (.integer(let integer), .boolean): integer == 0 ? "false" : "true"
        case (.integer(let integer), _): String(integer)
        case (.real(let real), _): ColumnValue.real(real).jsonLiteral
        case (.text(let text), .json): text
        case (.text(let text), _): ColumnValue.jsonString(text)
        }
    }

    /// `{"a":1,"b":"x"}` for the given columns of a row, in their order.
    package static func object(_ columns: [ColumnSpec], _ values: [ColumnValue]) -> String {
        object(selecting: 0..<min(columns.count, values.count), of: columns, values)
    }

    /// `{"a":1,"b":"x"}` for some of a row's columns: `indices` index both `columns` and `values`, in the order the
    /// object lists them.
    package static func object(
        selecting indices: some Sequence<Int>, of columns: [ColumnSpec], _ values: [ColumnValue]
    ) -> String {
        var text = "{"
        for index in indices {
            if text != "{" { text += "," }
            text +=
                ColumnValue.jsonString(columns[index].name) + ":" + literal(values[index], type: columns[index].type)
        }
        return text + "}"
    }
}
