-- The schema-drift journal: per endpoint, fields the records hold that no column maps, configured paths a whole
-- run's records lacked, and configured paths whose values came in a JSON type not seen there before
-- (`syncd drift`, GET /v1/endpoints/{name}/drift). One row per endpoint, kind and path; `count` is the runs that
-- saw it; `example` one value as JSON (never for a field whose name says it holds a secret).
CREATE TABLE syncd_drift (
    endpoint   TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('new_field', 'missing_path', 'type_change')),
    path       TEXT NOT NULL,
    detail     TEXT,
    first_seen TEXT NOT NULL,
    last_seen  TEXT NOT NULL,
    count      INTEGER NOT NULL DEFAULT 1,
    example    TEXT,
    PRIMARY KEY (endpoint, kind, path)
) WITHOUT ROWID;

-- The JSON types seen so far at each configured path of each endpoint (bits: 1 string, 2 number, 4 boolean,
-- 8 object, 16 array), so that a run can tell a type never seen there before.
CREATE TABLE syncd_path_types (
    endpoint TEXT NOT NULL,
    path     TEXT NOT NULL,
    types    INTEGER NOT NULL,
    PRIMARY KEY (endpoint, path)
) WITHOUT ROWID;
