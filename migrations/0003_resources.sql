-- Responses cached by SyncCore's ResourceCache: one row per URL, with the validators to revalidate it and the
-- time it was last confirmed by the upstream (fetched or answered 304).
CREATE TABLE syncd_resources (
    url           TEXT PRIMARY KEY NOT NULL,
    body          BLOB NOT NULL,
    content_type  TEXT,
    etag          TEXT,
    last_modified TEXT,
    validated_at  TEXT NOT NULL
);
