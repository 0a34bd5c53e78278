-- Keys seen by a running full-file sync. After the file, units of that source not seen are
-- marked deleted/deregistered (a full dump is the whole register). Rows are removed when the
-- run ends; a killed run's rows are removed by the next run of the same source.
CREATE TABLE sync_seen (
  run_id bigint NOT NULL,
  key text NOT NULL,
  PRIMARY KEY (run_id, key)
);
