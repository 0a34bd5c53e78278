-- KYB evidence packs: signed, immutable files of what a compliance review relied on, the public
-- keys that signed them (kept after rotation, so old packs still verify), the per-project daily
-- count of packs, and the audit trail of every screening call.

-- Every signing key this installation has used, by its RFC 7638 thumbprint. Rows are only added.
CREATE TABLE evidence_keys (
  kid text PRIMARY KEY,
  public_jwk jsonb NOT NULL,           -- {kty: OKP, crv: Ed25519, x}: the public half only
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE evidence_packs (
  id text PRIMARY KEY,                 -- 'ev_' + 24 random hex digits
  project_id bigint NOT NULL REFERENCES projects(id),
  key_prefix text NOT NULL,            -- the key that asked (its prefix, never the key)
  country text NOT NULL,
  org_number text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,     -- created_at + EVIDENCE_RETENTION_DAYS
  reference text,
  purpose text,
  hash text NOT NULL,                  -- SHA-256 (hex) of the canonical pack without hash and signature
  kid text NOT NULL REFERENCES evidence_keys(kid),
  summary jsonb NOT NULL,              -- the verdict lines, for lists and the MCP tool
  body text NOT NULL                   -- the signed pack, byte for byte as served
);
CREATE INDEX evidence_packs_project ON evidence_packs (project_id, created_at, id);
CREATE INDEX evidence_packs_project_org ON evidence_packs (project_id, org_number, created_at);
CREATE INDEX evidence_packs_expiry ON evidence_packs (expires_at);

-- A pack is never changed after creation: only the retention purge may delete it.
CREATE FUNCTION evidence_packs_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'evidence packs are never changed after creation';
END
$$;
CREATE TRIGGER evidence_packs_no_update BEFORE UPDATE ON evidence_packs
  FOR EACH ROW EXECUTE FUNCTION evidence_packs_immutable();

-- Packs created per project and UTC day (free keys: 10), counted by one conditional upsert.
CREATE TABLE evidence_pack_counts (
  project_id bigint NOT NULL REFERENCES projects(id),
  day date NOT NULL,
  used integer NOT NULL,
  PRIMARY KEY (project_id, day)
);

-- Every screening call (REST, MCP, evidence packs): who asked, what was screened, against which
-- list versions, with which threshold, and what came back. Persons by name and birth year only.
CREATE TABLE screening_audit (
  id bigserial PRIMARY KEY,
  project_id bigint NOT NULL REFERENCES projects(id),
  key_prefix text NOT NULL,
  at timestamptz NOT NULL,
  via text NOT NULL CHECK (via IN ('rest', 'mcp', 'evidence')),
  operation text NOT NULL CHECK (operation IN ('company', 'match')),
  subject jsonb NOT NULL,
  lists jsonb NOT NULL,
  threshold double precision NOT NULL,
  algorithm text NOT NULL,
  match_count integer NOT NULL,
  matches jsonb NOT NULL
);
CREATE INDEX screening_audit_project ON screening_audit (project_id, at, id);
CREATE INDEX screening_audit_at ON screening_audit (at);
