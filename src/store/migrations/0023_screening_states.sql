-- Re-screening of watched companies on list change: what the last re-screening of a
-- company found, so that the next one raises a `screening` event only for a match that appeared
-- or disappeared. Rows hold list entities (public list data: id, name, list, score), never a
-- person's identifiers; a company no watchlist holds any more keeps its row until it is watched
-- again (harmless: one small row).
CREATE TABLE screening_states (
  country text NOT NULL,
  org_number text NOT NULL,
  matches jsonb NOT NULL,  -- [{entityId, entityName, list, score}]
  screened_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (country, org_number)
);
