extension ConfigurationParser {
    /// `max_delete`: a percentage string (`"50%"`, whole percents from 0 to 100) or a whole number of rows.
    mutating func deletionLimit(_ field: Field) -> SyncEndpoint.DeletionLimit? {
        let limit: SyncEndpoint.DeletionLimit? =
            if let text = field.value.string {
                SyncEndpoint.DeletionLimit(percentText: text)
            } else if let rows = field.value.int {
                .rows(rows)
            } else {
                nil
            }
        guard let limit, limit.problem == nil else {
            report(SyncEndpoint.DeletionLimit.expected, at: field)
            return nil
        }
        return limit
    }
}
