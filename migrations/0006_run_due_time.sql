-- When the scheduler wanted each run to start (its due time), so that `started_at - due_at` is how late it started:
-- the schedule lag an operator watches under load. NULL for runs not started by the scheduler (`syncd sync`, a
-- library's sync) and for runs recorded before this migration.
ALTER TABLE syncd_runs ADD COLUMN due_at TEXT;
