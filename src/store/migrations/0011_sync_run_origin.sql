-- Where a sync run read its data: 'upstream' (the configured registry URL), 'url' (--url) or
-- 'file' (--file). A source is kept fresh on its schedule only once it has been synced from
-- the network: the demo dataset and one-off file imports never start scheduled downloads.
ALTER TABLE sync_runs ADD COLUMN origin text;
