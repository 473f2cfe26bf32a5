internal import FoundationEssentials
import SyncDecoding
import SyncModel
internal import SyncSQLite
import SyncSupport

/// A ``RecordQuery`` evaluated in Swift over a ``MemoryTable``, meaning what ``QueryCompiler``'s SQL means in
/// SQLite: values compare as SQLite's do (NULL below numbers, numbers by value, then text byte by byte), a condition
/// on NULL is unknown and so is its negation (neither selects the row), `like` is GLOB's case-sensitive match and
/// `ilike` LIKE's, which folds ASCII letters only, and NULLs sort where the order says (last ascending by default).
struct MemoryQuery {
    let endpoint: EndpointConfiguration
    let table: MemoryTable

    /// A row as the query reads it: the key and the row.
    typealias Entry = (key: [ColumnValue], row: MemoryTable.Row)

    /// The rows the filters select, in the query's order then the key's, and how many they are before the page's
    /// offset and limit.
    ///
    /// - Throws: ``StoreError`` for an unknown column or a value that does not fit its column.
    func select(_ query: RecordQuery) throws -> (page: ArraySlice<Entry>, total: Int) {
        let conditions = try query.filters.map(condition)
        let sorts = try query.order.map { order in
            let column = try RecordOperand.column(named: order.column, of: endpoint)
            return (position(of: column), order.descending, order.nullsFirst ?? order.descending)
        }
        let keys = endpoint.primaryKey.map { (position(of: endpoint.columns[$0]), false, false) }
        let selected = table.rows.lazy.map { (key: $0.key, row: $0.value) }
            .filter { entry in conditions.allSatisfy { $0(entry.row) == true } }
        let ordered = selected.sorted { first, second in
            for (position, descending, nullsFirst) in sorts + keys {
                let (a, b) = (value(at: position, of: first.row), value(at: position, of: second.row))
                // NULLs go where the order says, whichever its direction.
                let isNull = a == .null || b == .null
                let order = Self.order(a, b, nullsFirst: nullsFirst) * (descending && !isNull ? -1 : 1)
                if order != 0 { return order < 0 }
            }
            return false
        }
        let start = min(max(0, query.offset), ordered.count)
        let end = query.limit.flatMap { $0 < 0 ? nil : start + min($0, ordered.count - start) } ?? ordered.count
        return (ordered[start..<end], ordered.count)
    }

    private func position(of column: ColumnSpec) -> Int? {
        table.columns.firstIndex { $0.name == column.name }
    }

    private func value(at position: Int?, of row: MemoryTable.Row) -> ColumnValue {
        position.map { row.values[$0] } ?? .null
    }

    /// One filter as a test of a row: true, false, or nil for SQL's unknown.
    private func condition(_ filter: RecordFilter) throws -> (MemoryTable.Row) -> Bool? {
        let column = try RecordOperand.column(named: filter.column, of: endpoint)
        let position = position(of: column)
        let first = filter.values.first ?? ""
        let test: (ColumnValue) -> Bool?
        switch filter.op {
        case .eq, .neq, .gt, .gte, .lt, .lte:
            let operand = try RecordOperand.value(first, for: column, of: endpoint)
            let op = filter.op
            test = { stored in
                guard stored != .null else { return nil }
                let order = Self.order(stored, operand, nullsFirst: true)
                switch op {
                case .neq: return order != 0
                case .gt: return order > 0
                case .gte: return order >= 0
                case .lt: return order < 0
                case .lte: return order <= 0
                default: return order == 0
                }
            }
        case .like, .ilike:
            let pattern = MemoryPattern(first, caseSensitive: filter.op == .like)
            test = { stored in Self.text(of: stored).map(pattern.matches) }
        case .in:
            let operands = try filter.values.map { try RecordOperand.value($0, for: column, of: endpoint) }
            test = { stored in
                if operands.isEmpty { return false }
                if stored == .null { return nil }
                return operands.contains { Self.order(stored, $0, nullsFirst: true) == 0 }
            }
        case .is:
            switch first.lowercased() {
            case "null": test = { $0 == .null }
            case "true", "false":
                let wanted: ColumnValue = .integer(first.lowercased() == "true" ? 1 : 0)
                // A text column holds no boolean (PostgreSQL's FALSE, which SQLite's affinity would not say).
                let isText = column.type.isStoredAsText
                test = { stored in !isText && stored != .null && Self.order(stored, wanted, nullsFirst: true) == 0 }
            default:
                throw StoreError.badValue(
                    first, column: column.name, endpoint: endpoint.name.name, expected: "null, true or false")
            }
        }
        let negated = filter.negated
        return { row in
            let value = position.map { row.values[$0] } ?? .null
            return test(value).map { negated ? !$0 : $0 }
        }
    }

    /// How `first` compares with `second` (below 0, 0, above 0), as SQLite orders values: NULLs first or last as
    /// asked, then numbers by value, then text byte by byte.
    static func order(_ first: ColumnValue, _ second: ColumnValue, nullsFirst: Bool) -> Int {
        switch (first, second) {
        case (.null, .null): return 0
        case (.null, _): return nullsFirst ? -1 : 1
        case (_, .null): return nullsFirst ? 1 : -1
        case (.text(let a), .text(let b)):
            if a.utf8.elementsEqual(b.utf8) { return 0 }
            return a.precedesBytewise(b) ? -1 : 1
        case (.text, _): return 1
        case (_, .text): return -1
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        default:
            let (a, b) = (number(first), number(second))
            return a < b ? -1 : (a == b ? 0 : 1)
        }
    }

    private static func number(_ value: ColumnValue) -> Double {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        case .null, .text: 0
        }
    }

    /// A value as a pattern reads it: text as it is, a number as SQLite writes it; nil for NULL.
    static func text(of value: ColumnValue) -> String? {
        switch value {
        case .null: return nil
        case .text(let text): return text
        case .integer(let integer): return String(integer)
        case .real(let real):
            // SQLite's "%!.15g": 15 significant digits, and always a decimal point (2.0, 1.0e+20).
            var text = DoubleText.general(real, significantDigits: 15)
            guard real.isFinite, !text.contains(".") else { return text }
            if let exponent = text.firstIndex(of: "e") {
                text.insert(contentsOf: ".0", at: exponent)
            } else {
                text += ".0"
            }
            return text
        }
    }
}

/// PostgREST's `like` (case-sensitive, GLOB in SQLite) or `ilike` (LIKE, folding ASCII letters) pattern, matched in
/// Swift as ``RecordPattern`` writes it for SQL: `*` or `%` for any run of characters, `_` for one, a backslash for
/// the next character as itself (and a trailing one for itself).
struct MemoryPattern: Sendable {
    private enum Token: Sendable, Equatable {
        case anyRun
        case anyOne
        case scalar(Unicode.Scalar)
    }

    private let tokens: [Token]
    private let caseSensitive: Bool

    init(_ pattern: String, caseSensitive: Bool) {
        self.caseSensitive = caseSensitive
        var tokens: [Token] = []
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\\": tokens.append(.scalar(scalars.next() ?? "\\"))
            case "*", "%": tokens.append(.anyRun)
            case "_": tokens.append(.anyOne)
            default: tokens.append(.scalar(scalar))
            }
        }
        self.tokens = tokens.map { caseSensitive ? $0 : Self.folded($0) }
    }

    /// Whether the whole of `text` matches: the classic walk that goes back to the last `*` on a mismatch.
    func matches(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars).map { caseSensitive ? $0 : Self.folded($0) }
        var (position, token) = (0, 0)
        var retry: (token: Int, position: Int)?
        while position < scalars.count {
            if token < tokens.count, tokens[token] == .anyRun {
                retry = (token, position)
                token += 1
            } else if token < tokens.count,
                tokens[token] == .anyOne || tokens[token] == .scalar(scalars[position])
            {
                token += 1
                position += 1
            } else if let last = retry {
                retry = (last.token, last.position + 1)
                (token, position) = (last.token + 1, last.position + 1)
            } else {
                return false
            }
        }
        return tokens[token...].allSatisfy { $0 == .anyRun }
    }

    private static func folded(_ token: Token) -> Token {
        if case .scalar(let scalar) = token { return .scalar(folded(scalar)) }
        return token
    }

    /// ASCII letters in lower case, as SQLite's LIKE compares them; every other character as it is.
    private static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
    }
}
