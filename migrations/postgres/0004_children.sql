-- A child endpoint's state per parent row (`parent` in syncd.toml): each parent's child walk is conditional with
-- its own validators, and `children = "changed"` compares the parent's `_version` with the one its children were
-- last walked at. `parent_key` is the parent row's key as JSON, as the child rows' `_parent` holds it.
CREATE TABLE syncd_children (
    endpoint       TEXT NOT NULL,
    parent_key     TEXT NOT NULL,
    etag           TEXT,
    last_modified  TEXT,
    cursor         TEXT,
    parent_version BIGINT NOT NULL,
    walked_at      TEXT NOT NULL,
    PRIMARY KEY (endpoint, parent_key)
);
