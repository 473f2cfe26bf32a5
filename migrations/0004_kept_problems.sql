-- Problems whose record was stored as received but one of whose values was not used: an incremental cursor
-- value beyond the sync's time plus the tolerance is kept in the row but not adopted as the cursor. SQLite
-- cannot alter a CHECK constraint: the table is rebuilt with the same columns and rows.
CREATE TABLE syncd_errors_new (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER NOT NULL REFERENCES syncd_runs (id) ON DELETE CASCADE,
    endpoint     TEXT NOT NULL,
    record_index INTEGER,                 -- position in the response's record array
    record_key   TEXT,                    -- the key as JSON, when it could be read
    path         TEXT NOT NULL,           -- the JSON path inside the record
    column_name  TEXT,
    expected     TEXT NOT NULL,
    found        TEXT NOT NULL,
    action       TEXT NOT NULL CHECK (action IN ('rejected', 'nulled', 'replaced', 'kept')),
    message      TEXT NOT NULL
);
INSERT INTO syncd_errors_new SELECT id, run_id, endpoint, record_index, record_key, path, column_name, expected,
    found, action, message FROM syncd_errors;
DROP TABLE syncd_errors;
ALTER TABLE syncd_errors_new RENAME TO syncd_errors;
CREATE INDEX syncd_errors_run ON syncd_errors (run_id);
