package import SyncDecoding

extension EndpointConfiguration {
    /// The endpoint's decoder; an incremental endpoint's deleted flag is read as one more column, after the
    /// configured ones, which the table does not have. A child endpoint's parent columns are not read from its
    /// records: they come from the parent's row.
    package var recordDecoder: RecordDecoder {
        let own = ownColumnCount
        var columns = Array(self.columns.prefix(own))
        if let flag = incremental?.deletedFlag {
            columns.append(ColumnSpec(name: "deleted_flag", path: flag, type: .boolean))
        }
        var decoder = RecordDecoder(
            recordsPath: records ?? .root, columns: columns, keyColumns: primaryKey.filter { $0 < own },
            strict: self.strict)
        decoder.maxRecordBytes = self.maxRecord
        return decoder
    }
}

extension EndpointConfiguration {
    /// The columns read from the records: all of them but a child endpoint's parent columns, which follow them.
    package var ownColumnCount: Int {
        declared.parent == nil ? columns.count : max(0, columns.count - declared.parentColumns.count)
    }
}
