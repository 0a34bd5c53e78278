-- OAuth hygiene: which authorization code a grant came from (a second redemption of the code
-- revokes the grant and so every token it produced, RFC 6749 §4.1.2), and expiry indexes for the
-- scheduled purge of expired codes and tokens in bounded batches (oauth-purge job).
ALTER TABLE oauth_grants ADD COLUMN code_hash text;
CREATE INDEX oauth_grants_code ON oauth_grants (code_hash) WHERE code_hash IS NOT NULL;
CREATE INDEX oauth_codes_expires ON oauth_codes (expires_at);
CREATE INDEX oauth_tokens_expires ON oauth_tokens (expires_at);
