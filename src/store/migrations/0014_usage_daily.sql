-- One row per project and UTC day that had counted requests, so the setup page can chart
-- real usage history. project_usage keeps the quota counters; consume() bumps both in one
-- statement. Days without requests have no row (the reader fills the gaps with 0).
CREATE TABLE project_usage_daily (
  project_id bigint NOT NULL REFERENCES projects(id),
  day date NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (project_id, day)
);

-- Carry over the current day's counter so history does not start empty for existing projects.
INSERT INTO project_usage_daily (project_id, day, count)
SELECT project_id, day, day_count FROM project_usage WHERE day_count > 0;
