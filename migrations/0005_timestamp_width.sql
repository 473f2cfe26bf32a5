-- Timestamp columns now hold one width, `2024-05-01T10:00:00.250Z` (always milliseconds), so that text order is
-- time order; before, trailing zeros were dropped (`…00.25Z`, `…00Z`). Marking the stored column specs of every
-- endpoint with a timestamp column (one `name timestamp path` line each) makes them differ from the configured
-- ones, so the next sync of the endpoint, even one answered 304, re-reads its rows from `_raw`. The marker line
-- has no space: readers of the specs skip it.
UPDATE syncd_endpoints SET columns = columns || char(10) || '#timestamp-width-0005'
WHERE kind = 'collection' AND columns LIKE '% timestamp %';
