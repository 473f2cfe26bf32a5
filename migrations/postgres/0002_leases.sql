-- Endpoints leased across `syncd run` nodes: one row per endpoint any node has tried to claim. A node claims a due
-- endpoint by taking its row (SELECT … FOR UPDATE SKIP LOCKED) when the lease has run out or was handed back, and
-- holds it until its run's next due time is stored; it renews the lease while the run lasts. `due_at` is the
-- endpoint's next due time as the claims see it (syncd_endpoints.next_due_at, written in the same transaction), so
-- that a claim that waited for another node's hand-back sees the time that node stored.
CREATE TABLE syncd_leases (
    endpoint   TEXT PRIMARY KEY NOT NULL,
    holder     TEXT,                 -- the claiming process: a node name and a random token, unique to one process
    node       TEXT,                 -- the node's configured name
    expires_at TIMESTAMPTZ NOT NULL DEFAULT '-infinity',  -- the server's clock: nodes' clocks need not agree on it
    due_at     TEXT                  -- as next_due_at: `2024-05-01T10:00:00.250Z`, or NULL for due at once
);

-- The node that polled the endpoint last, for `syncd status` and `/v1/endpoints`.
ALTER TABLE syncd_endpoints ADD COLUMN last_node TEXT;
