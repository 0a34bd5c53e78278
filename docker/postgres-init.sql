-- Run once by the postgres image when it creates the database (docker-entrypoint-initdb.d).
-- The API's first migration also asks for pg_trgm; creating it here as the superuser means the
-- API's database user needs no extension privileges.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
