/// The keys seen in one response, in a temporary table: duplicates are found by its primary key,
/// and a snapshot deletes the stored rows whose key is not in it.
struct SeenKeys {
    let insertStatement: Statement
    let database: Database

    init(table: RecordTable, database: Database) throws {
        let columns = table.keyColumns.map { index in
            "\(SQLIdentifier.quote(table.columns[index].name)) \(table.columns[index].type.sqliteDeclaration)"
        }
        let keys = table.keyNames.map(SQLIdentifier.quote).joined(separator: ", ")
        try database.execute(
            """
            DROP TABLE IF EXISTS temp.syncd_seen;
            CREATE TEMP TABLE syncd_seen (\(columns.joined(separator: ", ")), PRIMARY KEY (\(keys))) WITHOUT ROWID
            """
        )
        let placeholders = Array(repeating: "?", count: table.keyColumns.count).joined(separator: ", ")
        self.insertStatement = try database.makeStatement(
            "INSERT INTO temp.syncd_seen VALUES (\(placeholders)) ON CONFLICT DO NOTHING")
        self.database = database
    }

    /// Records a key; `false` when it was already seen.
    func insert(_ key: [ColumnValue]) throws -> Bool {
        try insertStatement.reset()
        for (index, value) in key.enumerated() {
            try insertStatement.bind(value, at: Int32(index + 1))
        }
        try insertStatement.step()
        return database.changes > 0
    }

    func drop() throws {
        // A statement that has not been reset keeps its table in use, and DROP would fail with SQLITE_LOCKED.
        try insertStatement.reset()
        try database.execute("DROP TABLE IF EXISTS temp.syncd_seen")
    }
}
