import SyncDecoding
internal import SyncSQLite

/// The statements that store a run's records (``RecordTable/upsertSQL(rows:)``): ``groupSize`` records in one step
/// while that many wait, one at a time for the rest.
///
/// One step a record runs SQLite's whole program for each: it opens the table's and the index's cursors and walks
/// down to the leaf every time. A step of 32 records does that once for all of them. A first sync of 1M users from a
/// file took 3.2–3.6 s of user CPU against 3.8–4.5 s one at a time (three runs each, alternating); its wall time,
/// mostly the kernel's writes, moved less than the runs differ. In C against the same SQLite, 1M rows took 2.05 s
/// 64 at a time against 2.31 s one at a time.
/// A sync of fewer records than a group never prepares the larger statement.
struct RecordUpsert {
    /// The most records in one step.
    static let largestGroup = 32

    private let table: RecordTable
    private let database: Database
    private let single: Statement
    private var group: Statement?
    private let version: Int64
    private let now: String
    /// Records in one step of the larger statement, within the database's limit on parameters.
    let groupSize: Int

    init(table: RecordTable, database: Database, version: Int64, now: String) throws(SQLiteError) {
        self.table = table
        self.database = database
        self.version = version
        self.now = now
        single = try Self.prepare(table: table, rows: 1, database: database, version: version, now: now)
        groupSize = Self.groupSize(columns: table.columns.count, variableLimit: database.variableLimit)
    }

    /// How many records one step stores: at most ``largestGroup``, and no more than the parameters allow (two for
    /// the run, then each record's columns and `_raw`); 1 when not even two records fit.
    static func groupSize(columns: Int, variableLimit: Int) -> Int {
        max(1, min(largestGroup, (variableLimit - 2) / (columns + 1)))
    }

    /// Stores the records of `records` at `positions`, in that order, their `_raw` read from `bytes`, which stay
    /// valid through the call: no copy is bound.
    ///
    /// - Returns: The rows written (inserted, or updated because `_raw` changed).
    mutating func store(
        _ positions: [Int], of records: [DecodedRecord], bytes: UnsafeRawBufferPointer
    ) throws(SQLiteError) -> Int {
        var written = 0
        var next = 0
        if groupSize > 1, positions.count >= groupSize {
            let statement: Statement
            if let group {
                statement = group
            } else {
                statement = try Self.prepare(
                    table: table, rows: groupSize, database: database, version: version, now: now)
                group = statement
            }
            while positions.count - next >= groupSize {
                for row in 0..<groupSize {
                    try bind(records[positions[next + row]], bytes: bytes, into: statement, row: row)
                }
                written += try run(statement)
                next += groupSize
            }
        }
        while next < positions.count {
            try bind(records[positions[next]], bytes: bytes, into: single, row: 0)
            written += try run(single)
            next += 1
        }
        return written
    }

    private func bind(
        _ record: DecodedRecord, bytes: UnsafeRawBufferPointer, into statement: Statement, row: Int
    ) throws(SQLiteError) {
        let first = table.upsertParameter(row: row)
        let count = table.columns.count
        for index in 0..<count {
            try statement.bind(record.values[index], at: Int32(first + index))
        }
        // SQLite reads the bytes only in the step that follows, before the batch holding them goes: no copy. Every
        // step binds each of its records first, so a pointer left behind by a reset is never read.
        try statement.bindTextNoCopy(UnsafeRawBufferPointer(rebasing: bytes[record.raw]), at: Int32(first + count))
    }

    private func run(_ statement: Statement) throws(SQLiteError) -> Int {
        try statement.step()
        let written = database.changes
        statement.resetKeepingBindings()
        return written
    }

    /// The statement for `rows` records, with the run's version and time bound once, kept across resets.
    private static func prepare(
        table: RecordTable, rows: Int, database: Database, version: Int64, now: String
    ) throws(SQLiteError) -> Statement {
        let statement = try database.makeStatement(table.upsertSQL(rows: rows))
        try statement.bind(SQLiteValue.integer(version), at: 1)
        try statement.bind(SQLiteValue.text(now), at: 2)
        return statement
    }
}
