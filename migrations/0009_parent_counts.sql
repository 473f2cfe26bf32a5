-- What the last run of a child endpoint (`parent` in syncd.toml) did per parent, as `syncd status` and
-- `/v1/endpoints` show it: a small JSON object written with the run it describes (its endpoint row's update),
-- `{"walked":3,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}`; NULL for an endpoint without a parent,
-- and after a run that failed before or after its walks.
ALTER TABLE syncd_endpoints ADD COLUMN parents TEXT;
