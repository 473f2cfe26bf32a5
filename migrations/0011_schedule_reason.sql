-- Why each endpoint is next due when it is, in `syncd status`' words ("interval", "max-age: fresh for 58m",
-- "backoff after 3 failures"), stored with next_due_at by the scheduler. NULL before an endpoint's first scheduled
-- run, and for endpoints last scheduled before this migration.
ALTER TABLE syncd_endpoints ADD COLUMN schedule_reason TEXT;
