/// One row of a query's result, its values in column order.
package struct Row: Sendable, Hashable {
    package var columns: [String]
    package var values: [SQLiteValue]

    package init(columns: [String], values: [SQLiteValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of the named column, or `nil` when the row has no such column.
    package subscript(_ column: String) -> SQLiteValue? {
        guard let index = columns.firstIndex(of: column) else { return nil }
        return values[index]
    }

    package func integer(_ column: String) -> Int64? {
        if case .integer(let value) = self[column] { return value }
        return nil
    }

    package func text(_ column: String) -> String? {
        if case .text(let value) = self[column] { return value }
        return nil
    }
}
