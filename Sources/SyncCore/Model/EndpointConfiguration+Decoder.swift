extension EndpointConfiguration {
    /// The endpoint's decoder; an incremental endpoint's deleted flag is read as one more column, after the
    /// configured ones, which the table does not have.
    package var recordDecoder: RecordDecoder {
        var columns = self.columns
        if let flag = incremental?.deletedFlag {
            columns.append(ColumnSpec(name: "deleted_flag", path: flag, type: .boolean))
        }
        var decoder = RecordDecoder(
            recordsPath: records ?? .root, columns: columns, keyColumns: primaryKey,
            strict: self.strict)
        decoder.maxRecordBytes = self.maxRecord
        return decoder
    }
}
