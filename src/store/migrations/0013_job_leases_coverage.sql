-- Scheduled jobs on several processes: one lease row per job. A process claims a job with one
-- conditional statement (free or expired lease, and for a scheduled run a slot later than the
-- last one claimed), renews expires_at while it runs and clears holder when done. A crashed
-- holder stops renewing, so its lease expires and another process may take the job over.
CREATE TABLE job_leases (
  job text PRIMARY KEY,
  holder text,                          -- process running the job now (host:pid:boot id); null = free
  slot timestamptz,                     -- latest scheduled slot claimed: a slot is never run twice
  expires_at timestamptz,               -- the holder must renew before this; past it the lease is free
  claimed_at timestamptz
);

-- Which scheduled slot (null: run by hand) and which process each run belongs to. The unique
-- index is the last line of defence for "exactly once per slot".
ALTER TABLE sync_runs ADD COLUMN slot timestamptz;
ALTER TABLE sync_runs ADD COLUMN holder text;
CREATE UNIQUE INDEX sync_runs_source_slot ON sync_runs (source, slot) WHERE slot IS NOT NULL;

-- Nightly completeness snapshots (the coverage job; GET /api/coverage serves the latest).
-- cells: one object per country x category, measured from the store when the snapshot was taken.
CREATE TABLE coverage_snapshots (
  id bigserial PRIMARY KEY,
  taken_at timestamptz NOT NULL DEFAULT now(),
  cells jsonb NOT NULL
);
CREATE INDEX coverage_snapshots_taken ON coverage_snapshots (taken_at DESC, id DESC);
