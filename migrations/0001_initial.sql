-- syncd's own tables. Every table of syncd's is prefixed syncd_; record tables are named after
-- their endpoint and are created from the configuration, not here.

-- Facts about this database: its identity (part of every ETag, so that a rebuilt cache
-- never answers "not modified" to an ETag minted by another one).
CREATE TABLE syncd_meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
INSERT INTO syncd_meta (key, value) VALUES ('instance', lower(hex(randomblob(8))));

-- One row per configured endpoint: the upstream validators, the version and the health.
CREATE TABLE syncd_endpoints (
    name                 TEXT PRIMARY KEY NOT NULL,
    kind                 TEXT NOT NULL CHECK (kind IN ('collection', 'document')),
    url                  TEXT NOT NULL,
    etag                 TEXT,            -- the upstream's ETag, sent back as If-None-Match
    last_modified        TEXT,            -- the upstream's Last-Modified, sent back as If-Modified-Since
    version              INTEGER NOT NULL DEFAULT 0,  -- moves only when the stored data changed
    changed_at           TEXT,            -- when version last moved
    record_count         INTEGER NOT NULL DEFAULT 0,
    primary_key          TEXT,            -- JSON array of the key columns the table was created with
    columns              TEXT,            -- JSON: the column specs last applied to the table
    last_attempt_at      TEXT,
    last_success_at      TEXT,            -- the last 200 or 304 that was applied
    last_status          INTEGER,         -- the last HTTP status (200 for file://), NULL if none came
    last_error           TEXT,            -- one sentence, NULL after a success
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    next_due_at          TEXT
);

-- One row per sync of one endpoint.
CREATE TABLE syncd_runs (
    id          INTEGER PRIMARY KEY,
    endpoint    TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    outcome     TEXT NOT NULL CHECK (outcome IN ('changed', 'unchanged', 'not_modified', 'failed', 'refused')),
    http_status INTEGER,
    bytes       INTEGER NOT NULL DEFAULT 0,
    pages       INTEGER NOT NULL DEFAULT 0,
    records     INTEGER NOT NULL DEFAULT 0,
    inserted    INTEGER NOT NULL DEFAULT 0,
    updated     INTEGER NOT NULL DEFAULT 0,
    deleted     INTEGER NOT NULL DEFAULT 0,
    rejected    INTEGER NOT NULL DEFAULT 0,
    version     INTEGER,                  -- the endpoint's version after this run
    error       TEXT
);
CREATE INDEX syncd_runs_endpoint ON syncd_runs (endpoint, id);

-- Per-record decoding problems of a run: which record, which path, what was expected and found.
CREATE TABLE syncd_errors (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER NOT NULL REFERENCES syncd_runs (id) ON DELETE CASCADE,
    endpoint     TEXT NOT NULL,
    record_index INTEGER,                 -- position in the response's record array
    record_key   TEXT,                    -- the key as JSON, when it could be read
    path         TEXT NOT NULL,           -- the JSON path inside the record
    column_name  TEXT,
    expected     TEXT NOT NULL,
    found        TEXT NOT NULL,
    action       TEXT NOT NULL CHECK (action IN ('rejected', 'nulled', 'replaced')),
    message      TEXT NOT NULL
);
CREATE INDEX syncd_errors_run ON syncd_errors (run_id);

-- Document endpoints: the whole body is one cached resource.
CREATE TABLE syncd_documents (
    endpoint     TEXT PRIMARY KEY NOT NULL,
    body         BLOB NOT NULL,
    content_type TEXT,
    version      INTEGER NOT NULL,
    changed_at   TEXT NOT NULL
);

-- Keys deleted from record tables, so a reader can mirror a table incrementally.
CREATE TABLE syncd_tombstones (
    endpoint   TEXT NOT NULL,
    key        TEXT NOT NULL,             -- the key as JSON: a value, or an array for a composite key
    version    INTEGER NOT NULL,
    deleted_at TEXT NOT NULL,
    PRIMARY KEY (endpoint, key)
);
CREATE INDEX syncd_tombstones_version ON syncd_tombstones (endpoint, version);
