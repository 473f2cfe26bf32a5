import ArgumentParser
import FoundationEssentials
import SyncCore

/// `--format`: how rows are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table
    case json
    case ndjson
    case csv

    /// Prints rows of values in this format on standard output.
    func write(columns: [String], rows: [[SyncCache.SQLValue]]) {
        switch self {
        case .table: Terminal.standardOutput.write(TableText.table(columns: columns, rows: rows))
        case .csv: Terminal.standardOutput.write(TableText.csv(columns: columns, rows: rows))
        case .json:
            Terminal.standardOutput.write(TableText.jsonArray(TableText.jsonObjects(columns: columns, rows: rows)))
        case .ndjson:
            Terminal.standardOutput.write(
                TableText.jsonObjects(columns: columns, rows: rows).map { $0 + "\n" }.joined())
        }
    }
}

/// Rows of values printed as a table, CSV, JSON or NDJSON.
enum TableText {
    static let maximumWidth = 40

    /// An aligned text table with a header, cells cut at ``maximumWidth`` characters, control characters escaped
    /// (``TerminalText``).
    static func table(columns: [String], rows: [[SyncCache.SQLValue]]) -> String {
        let columns = columns.map(TerminalText.escaped)
        let cells = rows.map { row in row.map { cell(for: $0) } }
        var widths = columns.map(\.count)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ values: [String]) -> String {
            zip(values, widths).map { value, width in value.padding(toLength: width) }.joined(separator: "  ")
                .trimmingTrailingSpaces + "\n"
        }
        var text = line(columns)
        text += line(widths.map { String(repeating: "-", count: $0) })
        for row in cells { text += line(row) }
        return text
    }

    /// RFC 4180 CSV with a header line. Control characters in values are escaped (``TerminalText``), on a terminal
    /// or not, so a field never holds a line break.
    static func csv(columns: [String], rows: [[SyncCache.SQLValue]]) -> String {
        var text = columns.map { csvField(TerminalText.escaped($0)) }.joined(separator: ",") + "\r\n"
        for row in rows {
            text +=
                row.map { csvField(TerminalText.escaped($0.text ?? "")) }.joined(separator: ",")
                + "\r\n"
        }
        return text
    }

    /// One JSON object per row, keyed by column.
    static func jsonObjects(columns: [String], rows: [[SyncCache.SQLValue]]) -> [String] {
        rows.map { row in
            "{" + zip(columns, row).map { "\(JSONText.quote($0)):\(JSONText.literal($1))" }.joined(separator: ",") + "}"
        }
    }

    static func jsonArray(_ elements: [String]) -> String {
        elements.isEmpty ? "[]\n" : "[\n" + elements.map { "  " + $0 }.joined(separator: ",\n") + "\n]\n"
    }

    private static func cell(for value: SyncCache.SQLValue) -> String {
        guard let text = value.text else { return "NULL" }
        // Line breaks and tabs would break the alignment: a space. Other control characters are escaped.
        let flat = TerminalText.escaped(String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 }))
        return flat.count > maximumWidth ? String(flat.prefix(maximumWidth - 1)) + "…" : flat
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}

/// JSON text for values read from a store.
enum JSONText {
    static func quote(_ text: String) -> String {
        SyncCache.SQLValue.text(text).json
    }

    static func literal(_ value: SyncCache.SQLValue) -> String {
        // A real that is not finite has no JSON form: null.
        value.json
    }

    /// A record's JSON on one line: newlines can only be whitespace between tokens in valid JSON.
    static func singleLine(_ raw: String) -> String {
        guard raw.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return raw }
        return String(raw.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }

    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
