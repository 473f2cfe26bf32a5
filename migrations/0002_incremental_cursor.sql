-- Incremental endpoints: the highest value of the cursor column applied so far, advanced in the same
-- transaction as the rows it comes from, and the column it was read from (a cursor of another column is
-- not used: the endpoint starts again from its `initial` value).
ALTER TABLE syncd_endpoints ADD COLUMN cursor TEXT;
ALTER TABLE syncd_endpoints ADD COLUMN cursor_column TEXT;
