-- An incremental child endpoint's cursor is each parent's own (syncd_children.cursor); like an endpoint's, it is
-- kept with the column it was read from, so that a changed `incremental.column` does not send the old column's value.
ALTER TABLE syncd_children ADD COLUMN cursor_column TEXT;
