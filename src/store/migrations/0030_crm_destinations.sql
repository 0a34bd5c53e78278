-- CRM destinations (HubSpot, Attio) beside webhooks, and the queue of enrich-on-write jobs.
-- A CRM's tokens rest inside the sealed config like a webhook's headers; only the account id
-- the CRM names in its webhooks (HubSpot's portal id) is kept in clear, to find the destination
-- an incoming event belongs to.
ALTER TABLE destinations DROP CONSTRAINT IF EXISTS destinations_type_check;
ALTER TABLE destinations ADD CONSTRAINT destinations_type_check CHECK (type IN ('webhook', 'hubspot', 'attio'));
ALTER TABLE destinations ADD COLUMN external_account text;
CREATE INDEX destinations_external_account ON destinations (type, external_account)
  WHERE external_account IS NOT NULL;

-- One row per CRM record whose organisation number was set or changed: answered at once by the
-- webhook route, worked off in the background (claimed with a lease, so one process does it).
CREATE TABLE crm_writebacks (
  id bigserial PRIMARY KEY,
  destination_id uuid NOT NULL REFERENCES destinations(id) ON DELETE CASCADE,
  object_id text NOT NULL,                 -- the CRM's record id
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  outcome text,                            -- fixed words: written, unchanged, invalid, not_found, error
  attempts integer NOT NULL DEFAULT 0,
  not_before timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX crm_writebacks_pending ON crm_writebacks (not_before) WHERE status = 'pending';
-- A burst of events for one record while it waits is one job.
CREATE UNIQUE INDEX crm_writebacks_one_pending ON crm_writebacks (destination_id, object_id) WHERE status = 'pending';
