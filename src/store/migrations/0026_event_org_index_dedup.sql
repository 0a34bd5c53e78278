-- The company index of the event log holds the org number alone. A sync that changes
-- 100k companies inserts an entry for each of them all over the index; on (org_number, seq)
-- every entry is a key of its own, so the index was some 40 bytes an event and each such sync
-- dirtied (and after a checkpoint wrote in full to the WAL) nearly every page of it. On the org
-- number alone, btree deduplication keeps one key per company with a list of its rows: on 1.6M
-- sync-shaped events the index went from 62 MB to 13 MB, and a COPY of 200,000 more events from
-- 1.69 s and 162 MB of WAL to 1.01 s and 92 MB (BENCHMARKS.md). A read of one
-- company's events fetches its rows by this index and sorts the few it finds by seq.
CREATE INDEX company_events_org_number ON company_events (org_number);
DROP INDEX company_events_org;
