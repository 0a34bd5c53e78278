-- Finnish and Swedish filed accounts (PRH's open XBRL API, Bolagsverket's high-value-datasets API).
--
-- financial_filings: every filing a financials job has handled, so a second run and a run resumed
-- after a crash fetch none of them again. `status` is stored (its figures are in financials),
-- skipped (the document could not be read: `reason` says why, without the document's content) or
-- unknown (the company is not in the store). filing_id is the registry's own key: PRH's
-- businessId:financialDate, Bolagsverket's dokumentId.
CREATE TABLE financial_filings (
  source text NOT NULL,
  filing_id text NOT NULL,
  country text NOT NULL,
  org_number text NOT NULL,
  period_to date,
  status text NOT NULL CHECK (status IN ('stored', 'skipped', 'unknown')),
  reason text,
  handled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, filing_id)
);
CREATE INDEX financial_filings_skipped ON financial_filings (source, handled_at DESC) WHERE status = 'skipped';

-- Average number of employees of the accounting year where the filing states it (Swedish
-- MedelantaletAnstallda); NULL where the source does not say.
ALTER TABLE financials ADD COLUMN average_employees integer;

-- Bolagsverket's reklamspärr (the organisation has asked not to receive direct advertising), from
-- its organisation record; NULL = unknown (not asked, or another country's register).
ALTER TABLE companies ADD COLUMN marketing_protected boolean;
