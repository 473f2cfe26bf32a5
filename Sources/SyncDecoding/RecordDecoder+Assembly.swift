extension RecordDecoder {
    /// Fills `record` from what a walk captured: converts each column's value and notes what was wrong.
    ///
    /// `record` is reused from one record to the next, so its arrays keep their storage; problems
    /// are only built when something is wrong.
    func fill(
        _ record: inout DecodedRecord,
        index: Int,
        raw: Range<Int>,
        isObject: Bool,
        walker: borrowing RecordWalker,
        scratch: inout [UInt8]
    ) {
        record.index = index
        record.raw = raw
        record.isRejected = false
        if !record.problems.isEmpty { record.problems.removeAll(keepingCapacity: true) }
        guard isObject else {
            for column in record.values.indices { record.values[column] = .null }
            record.isRejected = true
            let bytes = UnsafeBufferPointer(rebasing: walker.scanner.buffer[raw])
            record.problems.append(
                DecodingProblem(
                    recordIndex: index,
                    recordKey: nil,
                    recordLabel: "#\(index)",
                    path: "$",
                    column: nil,
                    expected: "object",
                    found: JSONValueDescription.describe(bytes),
                    action: .rejected
                )
            )
            return
        }
        for column in types.indices {
            guard let value = walker.value(ofColumn: column) else {
                record.values[column] = .null
                if isRequired[column] { report(column, found: JSONValueDescription.missing, .rejected, in: &record) }
                continue
            }
            if value.first == JSONByte.lowerN {
                record.values[column] = .null
                if isRequired[column] { report(column, found: "null", .rejected, in: &record) }
                continue
            }
            switch ColumnConversion.convert(value, to: types[column], strict: strict, scratch: &scratch) {
            case .value(let converted):
                record.values[column] = converted
            case .replaced(let converted):
                record.values[column] = converted
                report(column, found: JSONValueDescription.describe(value), .replaced, in: &record)
            case .mistyped:
                record.values[column] = .null
                let action: DecodingProblem.Action = isRequired[column] ? .rejected : .nulled
                report(column, found: JSONValueDescription.describe(value), action, in: &record)
            }
        }
        if !record.problems.isEmpty { labelProblems(of: &record) }
    }

    private func report(_ column: Int, found: String, _ action: DecodingProblem.Action, in record: inout DecodedRecord)
    {
        if action == .rejected { record.isRejected = true }
        record.problems.append(
            DecodingProblem(
                recordIndex: record.index,
                recordKey: nil,
                recordLabel: "",
                path: pathDescriptions[column],
                column: columns[column].name,
                expected: types[column].rawValue,
                found: found,
                action: action
            )
        )
    }

    /// Names the record in its problems: by its key (`id=8`, `id=8,org=acme`) when every key value was read, else
    /// by its index (`#12`). Text is shown as is, other values as JSON, as the sync writer labels duplicates.
    private func labelProblems(of record: inout DecodedRecord) {
        var key: [ColumnValue]? = keyColumns.map { record.values[$0] }
        if keyColumns.isEmpty || key?.contains(.null) == true { key = nil }
        var label = "#\(record.index)"
        if let key {
            label = zip(keyColumns, key).map { column, value in
                switch value {
                case .text(let text): "\(columns[column].name)=\(text)"
                default: "\(columns[column].name)=\(value.jsonLiteral)"
                }
            }
            .joined(separator: ",")
        }
        for problem in record.problems.indices {
            record.problems[problem].recordKey = key
            record.problems[problem].recordLabel = label
        }
    }
}
