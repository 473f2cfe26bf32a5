extension ConfigurationParser {
    /// `max_delete`: a percentage string (`"50%"`, whole percents from 0 to 100) or a whole number of rows.
    mutating func deletionLimit(_ field: Field) -> DeletionLimit? {
        let limit: DeletionLimit? =
            if let text = field.value.string {
                DeletionLimit(percentText: text)
            } else if let rows = field.value.int {
                DeletionLimit.rows(rows)
            } else {
                nil
            }
        guard let limit else {
            report(
                #"max_delete must be a share of the stored rows from "0%" to "100%" (such as "50%") "#
                    + "or a whole number of rows of at least 0",
                at: field)
            return nil
        }
        return limit
    }
}
