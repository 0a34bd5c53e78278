-- Denmark: the CVR register as a fourth country.
-- CVR often registers employees as an interval only ("ANTAL_5_9"): the count column then holds the
-- lower bound and this column the interval itself ("5-9"). Null for the other registers.
ALTER TABLE companies ADD COLUMN employee_count_range text;

-- Legal owners from CVR's EJERREGISTER: the share is registered as a band (Selskabsloven), so each
-- row keeps the band's bounds in percent. Persons are kept by name only. Replaced per investee on
-- every sync of its document.
CREATE TABLE cvr_owners (
  investee_cvr text NOT NULL,
  position integer NOT NULL,
  owner_type text NOT NULL,
  owner_name text NOT NULL,
  owner_cvr text,
  pct_low double precision NOT NULL,
  pct_high double precision NOT NULL,
  voting_pct_low double precision,
  PRIMARY KEY (investee_cvr, position)
);
CREATE INDEX cvr_owners_owner ON cvr_owners (owner_cvr) WHERE owner_cvr IS NOT NULL;
