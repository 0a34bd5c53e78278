-- OAuth 2.1 sign-in for MCP clients: dynamically registered clients, authorization
-- codes, grants (one per consent: a client acting with one API key for one resource) and the
-- grant's access and refresh tokens. Codes and tokens are stored only as keyed hashes. A grant
-- is bound to the API key the user consented with: when that key is rotated or deactivated the
-- grant's tokens stop working (they are checked against the key's `active` flag on every use).
CREATE TABLE oauth_clients (
  client_id text PRIMARY KEY,
  client_name text,
  redirect_uris jsonb NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oauth_grants (
  id bigserial PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(client_id),
  key_id bigint NOT NULL REFERENCES api_keys(id),
  resource text NOT NULL,
  scope text,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX oauth_grants_key ON oauth_grants (key_id);

CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(client_id),
  key_id bigint NOT NULL REFERENCES api_keys(id),
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  resource text NOT NULL,
  scope text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE oauth_tokens (
  token_hash text PRIMARY KEY,
  grant_id bigint NOT NULL REFERENCES oauth_grants(id),
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  expires_at timestamptz NOT NULL,
  -- A refresh token is used once: rotation marks it and issues the next one.
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
