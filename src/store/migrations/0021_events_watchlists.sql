-- Monitoring: the company event log, watchlists and their alert deliveries.
--
-- Gapless seq: every transaction that appends events takes the next numbers from the single
-- row of event_seq (UPDATE ... RETURNING), as its last statement before commit. The row lock is
-- held until commit, so a later seq can never commit before an earlier one, and a rolled-back
-- transaction gives its numbers back. Readers paging by seq therefore never skip an event that
-- commits later. pruned_through is the highest seq removed by retention (410 below it).
CREATE TABLE event_seq (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_seq bigint NOT NULL,
  pruned_through bigint NOT NULL DEFAULT 0
);
INSERT INTO event_seq (id, last_seq) VALUES (true, 0);

CREATE TABLE company_events (
  seq bigint PRIMARY KEY,
  id uuid NOT NULL,
  org_number text NOT NULL,
  country text NOT NULL,
  category text NOT NULL CHECK (category IN ('status', 'name', 'address', 'industry', 'roles', 'ownership',
    'accounts', 'subUnits', 'licence', 'inspection', 'screening', 'procurement', 'deleted')),
  type text NOT NULL,
  fields_changed text[] NOT NULL,
  before jsonb NOT NULL,
  after jsonb NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  source text NOT NULL
);
CREATE INDEX company_events_company ON company_events (country, org_number, seq);
CREATE INDEX company_events_category ON company_events (category, seq);

CREATE TABLE watchlists (
  id bigserial PRIMARY KEY,
  project_id bigint NOT NULL REFERENCES projects(id),
  name text NOT NULL,
  categories text[] NOT NULL,
  destination_id uuid REFERENCES destinations(id) ON DELETE SET NULL,  -- gone: deliveries pause
  -- Deliveries have covered every event up to here.
  cursor_seq bigint NOT NULL,
  paused boolean NOT NULL DEFAULT false,
  paused_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT watchlists_project_name UNIQUE (project_id, name)
);

CREATE TABLE watchlist_companies (
  watchlist_id bigint NOT NULL REFERENCES watchlists(id) ON DELETE CASCADE,
  country text NOT NULL,
  org_number text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (watchlist_id, country, org_number)
);
CREATE INDEX watchlist_companies_company ON watchlist_companies (country, org_number);

-- One batch of events for one watchlist: sent until a 2xx, with the same webhook-id on every
-- attempt. A watchlist has at most one open batch (status 'pending'), so batches go in seq order.
-- lease_holder/lease_until: the process sending it now (like job_leases). Times come from the
-- app's clock (a test clock moves them), not the database's.
CREATE TABLE watchlist_deliveries (
  id bigserial PRIMARY KEY,
  watchlist_id bigint NOT NULL REFERENCES watchlists(id) ON DELETE CASCADE,
  webhook_id text NOT NULL UNIQUE,
  from_seq bigint NOT NULL,
  to_seq bigint NOT NULL,
  event_count integer NOT NULL,
  body text NOT NULL,                      -- {watchlist, events}: the same bytes on every attempt
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'abandoned')),
  attempts integer NOT NULL DEFAULT 0,
  last_status integer,
  last_error text,
  next_attempt_at timestamptz NOT NULL,
  lease_holder text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz
);
CREATE UNIQUE INDEX watchlist_deliveries_open ON watchlist_deliveries (watchlist_id) WHERE status = 'pending';
CREATE INDEX watchlist_deliveries_due ON watchlist_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX watchlist_deliveries_list ON watchlist_deliveries (watchlist_id, id);
