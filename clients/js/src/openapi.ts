// Generated from the server's OpenAPI document by `npm run client:generate`. Do not edit:
// change the route schemas and regenerate.
/* eslint-disable */
export interface paths {
    "/api/keys/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a free-tier API key
         * @description At most 3 registrations (shared with access requests) per client IP per hour. The raw key is returned once.
         */
        post: operations["postKeysRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the presented API key
         * @description Deactivates the presented key at once and issues a new one with the same tier, limits and usage counters. Not counted against quotas.
         */
        post: operations["postKeysRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Usage and limits of the presented key */
        get: operations["getKeysUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/access-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Request access to a higher tier */
        post: operations["postAccessRequests"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health probe
         * @description No key, no rate limit. With `X-Sync-Secret` equal to SYNC_SECRET the diagnostic shape is returned; any other value is ignored.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/municipalities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Municipalities grouped by county */
        get: operations["getMunicipalities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/enrich": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Full records for up to 100 companies
         * @description Norwegian misses are fetched live (at most 10 upstream requests in flight per call). Finnish and Swedish misses are not fetched. Numbers the registry could not answer for are listed in `unavailable`; the rest is answered. Duplicates are answered once.
         */
        post: operations["postCompaniesEnrich"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/match": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Match company names to organisation numbers
         * @description Matches 1–100 company names (with optional country, municipality or city, postal code, address, website and organisation form) against the registers of all our countries, on current and former names. Each result lists ranked candidates with a score (0–1) and the features that explain it, and `match`: the top candidate when it clears the threshold with a margin over the second, else null. Candidates are ranked by score alone; deleted, dissolved and bankrupt companies score 0.15 less unless a query sets includeInactive. The work of a call is bounded: a name not looked up within it answers status not_attempted with a reason (send it again in a smaller call); the others answer status done. Counts as one request.
         */
        post: operations["postCompaniesMatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/reconcile-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reconciliation service URL of the presented key (OpenRefine)
         * @description OpenRefine cannot send an Authorization header, so each key has a service URL with a token in its path that stands for the key (same tier, limits and usage). Treat it like the key: it stops working when the key is rotated or deactivated. The W3C Reconciliation API v0.2 service (manifest, queries, preview, suggest, data extension) answers under it.
         */
        get: operations["getKeysReconcileUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{orgNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look up one company
         * @description Norwegian companies missing from the store are fetched live from Brønnøysundregistrene and stored. Finnish and Swedish companies come from bulk syncs only: a miss is 404. Adds classification labels, county hydration and, with include=context, aggregate context.
         */
        get: operations["getCompaniesByOrgNumber"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search companies
         * @description Keyset-paginated: follow `nextCursor` until `hasMore` is false. Free keys must give at least one filter (country, sort, order, limit, cursor and include do not count). At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).
         */
        get: operations["getCompanies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Companies changed since a time
         * @description Ordered by updatedAt ascending (ties by id), inclusive of `since`. Store the latest updatedAt you saw and pass it as `since` next time. Deleted and deregistered companies appear too (isDeleted). Upstream refresh: Norway every 15 minutes, Finland and Sweden daily.
         */
        get: operations["getUpdates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's destinations, sorted by name */
        get: operations["getDestinations"];
        put?: never;
        /**
         * Create a destination
         * @description A webhook that `POST /api/push/{name}` sends company records to. The config is stored encrypted (AES-256-GCM); header values and the signing secret are never served back. A URL whose host resolves to a private, loopback or link-local address is refused. Plain http is accepted with a warning.
         */
        post: operations["postDestinations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/destinations/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One destination */
        get: operations["getDestinationsByName"];
        /**
         * Change a destination
         * @description `type`, `config` and `isActive`, each optional (at least one). A given `config` replaces the whole config, headers and signing secret included.
         */
        put: operations["putDestinationsByName"];
        post?: never;
        /** Delete a destination */
        delete: operations["deleteDestinationsByName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/push/{destinationName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Push companies to a destination
         * @description Loads the full records (financials, roles, subUnits, licenses; Norwegian misses fetched live) of `orgNumbers` (Norwegian) or `pairs` (any Nordic country). A `webhook` destination gets `{ companies: [...] }` in one request with `Content-Type: application/json` plus the configured headers, signed when the destination has a signing secret; deadline 10 s, no redirects followed, no retry; a failed delivery still answers 200 with the batch in `errors[]` (a fixed class, never the receiver's answer). A `hubspot` or `attio` destination gets an upsert keyed by the organisation number (the same company pushed twice is one CRM record); the result counts `created`, `updated`, `skipped` (companies that declined advertising, unless the destination allows them) and `failed`, with one `errors[]` entry per company not written. A CRM that stays down or refuses the token answers 502 `crm_unavailable`. Counts as one request against quotas. Free-tier keys cannot push.
         */
        post: operations["postPushByDestinationName"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{orgNumber}/shareholders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Shareholders of a Norwegian or Danish company
         * @description NO: annual snapshots of Aksjonærregisteret (AS and ASA). Natural persons are left out unless includePersons=true, and then carry only name and birth year. ownershipPct is computed at read time; without a stated total, the total is the sum of the stored positions of the same year and share class. country=DK: the legal owners CVR registers (EJERREGISTER), current state only (no year; availableYears is empty), each with the band of its share (ownershipPctRange) and ownershipPct as its lower bound; persons by name only.
         */
        get: operations["getCompaniesByOrgNumberShareholders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{orgNumber}/group": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Corporate group tree
         * @description Walks parentOrgNumber up at most 5 levels to the root, then returns the descendants breadth-first, at most 500 members. Parents come from Brønnøysundregistrene, else from the majority shareholder (more than 50 % of all shares) in the latest year of Aksjonærregisteret; with country=DK from the legal owner over 50 % in the owner register of CVR. Counts as one request. 404 when the company is not in the store: call the lookup first.
         */
        get: operations["getCompaniesByOrgNumberGroup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{orgNumber}/owners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ultimate-owner candidates, derived from the shareholder registers
         * @description Walks the chains of the shareholder registers up from the company (NO: Aksjonærregisteret, one register year used throughout, a company without rows in it read from its latest earlier year and listed in yearFallbacks; country=DK: the legal owners in CVR, whose bands give effectivePctRange). This is derived from the shareholder registers (basis: shareholder-register), NOT from a register of beneficial owners: it shows who holds the shares, layer by layer, and how much could not be traced. Each candidate (a natural person, a company with no known owners, the state, a foreign owner, or unknown / widely held) carries effectivePct (the product along each path, summed over paths), controls (a majority at every step of some path), its paths and why the walk stopped. Several share classes count by shares held; the company’s own (treasury) shares are left out of the base; cycles end the path (stopReason cycle). Natural persons only with includePersons=true, and then with name and birth year only. flags follow the EU AML Authority’s draft criteria for complex structures (at least 3 layers and two of: trust or similar arrangement, non-EU/EEA jurisdiction, nominee), each with its evidence, null where the registers cannot tell (trusts and nominees are recognised by name only).
         */
        get: operations["getCompaniesByOrgNumberOwners"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{orgNumber}/ownership-changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ownership changes between register years
         * @description Per pair of consecutive years in which the company has rows in Aksjonærregisteret (between fromYear and toYear): the owners that entered or left, rose or fell by at least 5 percentage points, and whether the largest owner changed. Shares count every class and leave treasury shares out of the base. Derived from the shareholder register (basis: shareholder-register), not the register of beneficial owners. Natural persons only with includePersons=true (name and birth year); hidden, a person largest owner is shown without a name. Norway only: CVR (country=DK) keeps no years.
         */
        get: operations["getCompaniesByOrgNumberOwnershipChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shareholders/by-owner": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Holdings of a shareholder company
         * @description Entity shareholders only (a 9-digit organisation number; with country=DK an 8-digit CVR number and the legal owner register of CVR, current state, each share as its band in ownershipPctRange). Company name, form and employees come from the company store when the company is there. With transitive=true every company held directly or through the companies it holds (down to maxDepth layers, at most 2000 companies), each with effectivePct (the product of the shares along each path, summed over paths; effectivePctRange for DK), controls and its paths, largest first and paged (limit, nextCursor); derived from the shareholder registers (basis), not the register of beneficial owners.
         */
        get: operations["getShareholdersByOwner"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enrichment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Domain-enrichment results with their scoring ledger
         * @description One row per Norwegian company the pipeline has seen, ordered by confidence (highest first), then org number. Status: confirmed (score ≥ 65), ambiguous (35–64), rejected (< 35), pending (not scored yet). Offset pagination; `summary` counts companies per status at or above minConfidence.
         */
        get: operations["getEnrichment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inspections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Food-safety inspections (Mattilsynet, Norway)
         * @description One row per inspection visit from Mattilsynet's smilefjes register. Keyset-paginated: follow `nextCursor` until `hasMore` is false. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).
         */
        get: operations["getInspections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/licenses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Alcohol and tobacco licences (Norway)
         * @description Licences from the import format of docs/licenses-import-format.md. Keyset-paginated: follow `nextCursor` until `hasMore` is false. A missing validFrom sorts as the earliest, a missing validTo as the latest. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).
         */
        get: operations["getLicenses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/screening/{orgNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Screen a company against PEP and sanctions lists
         * @description Screens the company name, its active roles (CEO, board, owners of sole proprietorships …; persons by name and birth year, organisations by name; not the auditor or accountant) and the holders of its latest Aksjonærregisteret year (DK: the legal owners in CVR's owner register, persons by name only) against every loaded list (ncd sync sanctions). Fuzzy, transliteration-aware name matching with birth-year and country adjustments; every result is a *possible* match with a score in [0, 1] (a name alone scores at most 0.9) at or above `threshold` (default 0.75), for a person to review. Persons are never matched with organisations. The company must be in the store (404 otherwise; look it up first). Counts as one request. Every call is recorded in the audit trail (GET /api/screening/audit).
         */
        get: operations["getScreeningByOrgNumber"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/screening/match": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Screen any persons or organisations against PEP and sanctions lists
         * @description Screens 1–100 entities (name, schema Person/Company/Organization, optional birth date, nationality or country) that need not be in our store. The answer is shaped like yente’s /match: per query key the best results with score, `match` flag (score ≥ threshold), features and an explanation naming the word pairs and rules that drove the score, plus the list versions (name, version, last sync) and the algorithm version for the audit trail. Persons are never matched with organisations. Counts as one request, whatever the number of entities.
         */
        post: operations["postScreeningMatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/screening/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit trail of the project's screening calls
         * @description Every screening call of this project (REST, MCP and inside evidence packs), oldest first: when, which key (prefix), the subject (the company and its screened subjects, or the queries; persons by name and birth year only), the list versions, the threshold, the algorithm and the matches returned. `from` inclusive, `to` exclusive. Kept as long as evidence packs (EVIDENCE_RETENTION_DAYS).
         */
        get: operations["getScreeningAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{orgNumber}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a signed KYB evidence pack of a company
         * @description Gathers the company record as served (with `_sources`), its roles, shareholders, ultimate-owner candidates with paths, the group tree, the PEP/sanctions screening of the company and every subject (each list with its version and our last sync) and the registry status (fetched live from the registry where the country allows it: NO, and DK with CVR credentials; else the store's copy, said so), each part with its source, upstream URL or file and retrieval time; who asked (key prefix), when, and the software version. The pack is canonical JSON (RFC 8785), hashed with SHA-256 and signed with Ed25519 (public keys: /.well-known/jwks.json; check offline with `ncd evidence verify FILE`). The body returned is the stored pack byte for byte; it is never changed and is kept EVIDENCE_RETENTION_DAYS (default 10 years). Counts as one request; free keys may create 10 packs a UTC day (429 `evidence_pack_limit`). `Server-Timing` reports the live fetch (`live`) and the rest (`build`).
         */
        post: operations["postCompaniesByOrgNumberEvidence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's evidence packs, oldest first
         * @description Filter by `orgNumber` and creation time (`from` inclusive, `to` exclusive). Each row has the verdict lines and the hash.
         */
        get: operations["getEvidence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One evidence pack (JSON), or its PDF with .pdf
         * @description `/api/evidence/{id}`: the signed pack, byte for byte as created. `/api/evidence/{id}.pdf`: the same pack for people: a first page with the verdict lines (registry status, screening hits, owners), then the details, with the hash and signature on every page. Another project's pack answers 404.
         */
        get: operations["getEvidenceById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public keys of the evidence-pack signatures (JWKS)
         * @description Every Ed25519 key that ever signed a pack here (OKP, RFC 8037), each with `kid` = its RFC 7638 thumbprint, the pack's `signature.kid`. Rotation keeps old keys listed, so old packs still verify.
         */
        get: operations["getWellKnownJwksJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Coverage by country and category
         * @description No key. What the store holds per country (NO, FI, SE) and category (companies, financials, roles, sub-units, shareholders, licences, inspections, domains, technologies, screening lists): record counts, the share of companies covered, last successful sync and the sync schedule. Measured from the store by a nightly snapshot; cached for one hour.
         */
        get: operations["getCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market-context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Market context of a municipality and an industry
         * @description Figures from SSB (NO), SCB (SE), Statistics Finland (FI) and Statistics Denmark (DK), synced monthly: per municipality the latest population, household income (median; mean for DK), enterprises and enterprises per 1,000 inhabitants; for a NACE division the average monthly wage, enterprises and the startup survival rate, each at the level the bureau publishes it: the division, else its NACE section or the bureau's own grouping (`level` and `label` say which; such a figure is never the division's). Each figure names its bureau, table, year, unit, level and licence; a measure the bureau publishes no usable table for is `{unavailable: true, reason}`; null: no figure stored for that municipality or industry. `tables` lists the tables with licence and vintage, `_sources.licences` each bureau's licence.
         */
        get: operations["getMarketContext"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Model Context Protocol endpoint (Streamable HTTP)
         * @description For MCP clients (Claude, Cursor, the MCP SDKs), not for hand-written calls. Stateless Streamable HTTP: no session id; send `Accept: application/json, text/event-stream`; answers are JSON. Authorization: an API key as Bearer token, or an OAuth access token (sign-in discovered from the 401’s `WWW-Authenticate` header: /.well-known/oauth-protected-resource). Tools: lookup_company, search_companies, find_prospects, get_financials, get_corporate_group, get_shareholders, get_ownership_network, search_inspections, search_licenses, list_municipalities, screen_company, list_destinations, push_to_destination, manage_destination. Each HTTP request counts once against the key’s per-minute rate and daily/monthly quotas (initialize, tools/list and each tools/call are separate requests). Tools apply the key’s tier (page-size cap, search filter rule, push right). A tool failure (unknown company, invalid number, refused by tier) is a tool result with `isError: true`. GET and DELETE answer 405.
         */
        post: operations["postMcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/procurement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public procurement notices (Doffin, TED)
         * @description Competition, result and cancellation notices from Doffin (Norway) and TED (Nordic buyers), one row per notice even when both publish it. `status` is derived: ACTIVE while the deadline is ahead, CLOSED after it, AWARDED once a result names a winner, CANCELLED. `value` sorts by the estimated value, else the awarded value. Keyset-paginated: follow `nextCursor` until `hasMore` is false. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).
         */
        get: operations["getProcurement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/procurement/{noticeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One procurement notice */
        get: operations["getProcurementByNoticeId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Typed company change events after a seq
         * @description Every change an ingest commits (status, name, address, industry, roles, accounts, sub-units, deletion, …) as an event with before/after of the changed fields, numbered by a global, gapless, increasing `seq`. Pass the `nextAfter` of a page as `after` to read on; a reader resuming from its last seq sees every committed event exactly once, in order. `after` below what retention removed answers 410 `events_expired` with `resumeAfter`. A page holds at most 50 × your page size (at most 5,000 events).
         */
        get: operations["getEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Company events as Server-Sent Events
         * @description Each event is sent as `id: <seq>`, `event: <category>`, `data: <event JSON>` (as in GET /api/events). Reconnect with `Last-Event-ID` (or `after`) to resume with no gap. A comment line `: heartbeat` is sent every 15 s. Filters as in GET /api/events. Opening a stream counts as one request; each further minute it stays open counts one more against your daily and monthly quotas, and the stream ends when they are spent. Open streams per key: free 1, pro 10, enterprise and internal 100 (per server process). The key is re-checked every few seconds (`EVENT_STREAM_CREDENTIAL_CHECK_MS`, 5 s): once it is rotated or deactivated the stream sends `event: end` and closes.
         */
        get: operations["getEventsStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/watchlists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's watchlists, sorted by name */
        get: operations["getWatchlists"];
        put?: never;
        /**
         * Create a watchlist
         * @description Companies to watch (add them with POST /api/watchlists/{name}/companies), the event categories to alert on, and the destination (see /api/destinations) alerts are sent to as batches `{watchlist, events}`, each with a `webhook-id` that stays the same on every retry (signed with Standard Webhooks when the destination has a signing secret). Alerts cover events committed after the watchlist was created.
         */
        post: operations["postWatchlists"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/watchlists/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One watchlist */
        get: operations["getWatchlistsByName"];
        /**
         * Change categories or destination, pause or resume
         * @description After 24 hours of failed deliveries a watchlist is paused with `pausedReason: delivery_failed`; `{"paused": false}` resumes it and sends the abandoned batch again.
         */
        put: operations["putWatchlistsByName"];
        post?: never;
        /** Delete a watchlist (its companies and delivery log go with it) */
        delete: operations["deleteWatchlistsByName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/watchlists/{name}/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A watchlist's companies
         * @description In `(country, orgNumber)` order, each with the name the store holds (null when it holds none) and when it was added. Cursor-paginated: pass `nextCursor` back as `cursor` while `hasMore` is true. 404 `watchlist_not_found` for a name your project does not have.
         */
        get: operations["getWatchlistsByNameCompanies"];
        put?: never;
        /**
         * Add companies to a watchlist
         * @description Up to 1,000 `(orgNumber, country)` pairs per call; pairs already on the list are left. A watchlist holds at most: free 25, pro 5,000, enterprise and internal as configured. A call that would go over adds nothing (409 `watchlist_full`).
         */
        post: operations["postWatchlistsByNameCompanies"];
        /**
         * Remove companies from a watchlist
         * @description Up to 1,000 `(orgNumber, country)` pairs per call; pairs not on the list are ignored.
         */
        delete: operations["deleteWatchlistsByNameCompanies"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/watchlists/{name}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A watchlist's alert deliveries, newest first
         * @description Each batch with its webhook-id, seq range, attempts, last status or error class, and the next retry (exponential backoff with jitter, for up to 24 hours).
         */
        get: operations["getWatchlistsByNameDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Every error has this shape; `details` on validation errors.
         * @example {
         *       "error": "Invalid request",
         *       "code": "validation_failed",
         *       "details": [
         *         {
         *           "path": "params.orgNumber",
         *           "message": "must be 9 digits with a valid check digit"
         *         }
         *       ],
         *       "requestId": "6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f",
         *       "docs": "http://localhost:3000/errors#validation_failed"
         *     }
         */
        ErrorBody: {
            error: string;
            /** @enum {string} */
            code: "validation_failed" | "invalid_json" | "search_filter_required" | "invalid_cursor" | "cursor_query_mismatch" | "bad_request" | "missing_api_key" | "invalid_api_key" | "invalid_signature" | "trial_expired" | "push_not_allowed" | "destination_inactive" | "route_not_found" | "key_not_found" | "company_not_found" | "destination_not_found" | "notice_not_found" | "watchlist_not_found" | "evidence_not_found" | "integration_not_configured" | "method_not_allowed" | "watchlist_name_taken" | "watchlist_full" | "events_expired" | "too_many_streams" | "project_name_taken" | "destination_name_taken" | "payload_too_large" | "uri_too_long" | "unsupported_media_type" | "rate_limited" | "daily_quota_exceeded" | "monthly_quota_exceeded" | "evidence_pack_limit" | "registration_limited" | "live_fetch_budget_exceeded" | "cursor_depth_exceeded" | "internal_error" | "query_failed" | "destination_unreadable" | "upstream_unavailable" | "crm_unavailable" | "service_unavailable";
            details?: {
                path: string;
                message: string;
            }[];
            requestId?: string;
            upgradeUrl?: string;
            retryAfter?: number;
            /**
             * Format: uri
             * @description This code's entry on the errors page: meaning and what to do
             */
            docs?: string;
        };
        /**
         * @example {
         *       "rateLimitPerMinute": 20,
         *       "dailyLimit": 500,
         *       "monthlyLimit": 5000,
         *       "maxPageSize": 20
         *     }
         */
        KeyLimits: {
            /** @description Requests per minute; null = unlimited */
            rateLimitPerMinute: number | null;
            /** @description Requests per UTC day; null = unlimited */
            dailyLimit: number | null;
            /** @description Requests per UTC month; null = unlimited */
            monthlyLimit: number | null;
            /** @description Largest page a list endpoint returns */
            maxPageSize: number;
        };
        /**
         * @example {
         *       "attribution": [
         *         "Brønnøysundregistrene",
         *         "Regnskapsregisteret",
         *         "SSB Klass"
         *       ],
         *       "fields": {
         *         "companyCore": "Brønnøysundregistrene",
         *         "roles": "Brønnøysundregistrene",
         *         "financials": "Regnskapsregisteret",
         *         "financialRatios": {
         *           "source": "Regnskapsregisteret",
         *           "computed": true
         *         },
         *         "industryLabel": "SSB Klass",
         *         "orgFormLabel": "SSB Klass",
         *         "countryLabel": "SSB Klass"
         *       }
         *     }
         */
        Sources: {
            /** @description Source names, deduplicated, for a "Data via" footer */
            attribution: string[];
            /** @description Field group (companyCore, roles, financials, financialRatios, industryLabel, orgFormLabel, countryLabel, countyEnrichment, groupHierarchy, shareholders, domain, socialHandles, technologies) -> source; absent when the data is absent */
            fields: {
                [key: string]: unknown;
            };
        };
        /** @description Computed from stored data by fixed rules (lookup and enrich); each null when its inputs are missing */
        Signals: {
            /** @description Points from the latest two filed years (company accounts where filed): equity ratio 30 (0 % -> 0, 40 % -> 30, linear), profit margin 25 (-10 % -> 0, +10 % -> 25), revenue change 20 (-20 % -> 0, +20 % -> 20), positive equity 15, a filed period that ended at most 18 months ago 10; an input that is missing scores half its points. Capped at 10 when bankrupt, 20 in liquidation or forced dissolution, 30 in debt negotiation. null without a filed year */
            financialHealthScore: number | null;
            /** @description Compound annual revenue growth from the oldest to the latest of up to the last five filed years, a fraction (0.19 = 19 %); null with fewer than two years or a non-positive oldest revenue */
            revenueCagr: number | null;
            /** @description The largest owner's share (%) in the latest register year, all share classes. NO: Aksjonærregisteret. DK: CVR's owner register, which records each legal owner's share as a band: the largest band's lower bound (e.g. 50 for 50–66.67 %), said so in the explanation (inputs.bandHighPct, year null: the register is current). FI, SE: null (the registries publish no shareholders). null without register data */
            ownershipConcentrationPct: number | null;
            /** @description Owners registered outside the company's country hold more than 50 % (NO: Aksjonærregisteret's country code). DK: null (the CVR owners stored carry no country); FI, SE: null (no shareholder register); null without register data */
            isForeignOwned: boolean | null;
            /** @description The registry shows reconstruction or debt negotiation: NO brreg underRekonstruksjonsforhandlingDato; FI PRH open situation SANE (yrityssaneeraus); SE Bolagsverket pending företagsrekonstruktion; DK CVR status REKONSTRUKTION. null where the source states no status */
            isInDebtNegotiation: boolean | null;
            /** @description For each non-null signal: the rule, the inputs it read and their year */
            explanation: {
                financialHealthScore?: {
                    rule: string;
                    /** @description The values the rule read */
                    inputs: {
                        [key: string]: unknown;
                    };
                    /** @description The filed or register year the inputs are from */
                    year: number | null;
                };
                revenueCagr?: {
                    rule: string;
                    /** @description The values the rule read */
                    inputs: {
                        [key: string]: unknown;
                    };
                    /** @description The filed or register year the inputs are from */
                    year: number | null;
                };
                ownershipConcentrationPct?: {
                    rule: string;
                    /** @description The values the rule read */
                    inputs: {
                        [key: string]: unknown;
                    };
                    /** @description The filed or register year the inputs are from */
                    year: number | null;
                };
                isForeignOwned?: {
                    rule: string;
                    /** @description The values the rule read */
                    inputs: {
                        [key: string]: unknown;
                    };
                    /** @description The filed or register year the inputs are from */
                    year: number | null;
                };
                isInDebtNegotiation?: {
                    rule: string;
                    /** @description The values the rule read */
                    inputs: {
                        [key: string]: unknown;
                    };
                    /** @description The filed or register year the inputs are from */
                    year: number | null;
                };
            };
        };
        /**
         * @example {
         *       "orgNumber": "923609016",
         *       "regnskapstype": "SELSKAP",
         *       "periodFrom": "2024-01-01",
         *       "periodTo": "2024-12-31",
         *       "currency": "USD",
         *       "revenue": 72543000000,
         *       "operatingProfit": 13001000000,
         *       "operatingResult": 13001000000,
         *       "netResult": 8141000000,
         *       "equity": 41090000000,
         *       "totalAssets": 109150000000,
         *       "totalLiabilities": 68060000000,
         *       "averageEmployees": null,
         *       "profitMargin": 11.22,
         *       "operatingMargin": 17.92,
         *       "returnOnEquity": 19.81,
         *       "equityRatio": 37.65,
         *       "revenueGrowthYoY": -8.4
         *     }
         */
        Financial: {
            orgNumber: string;
            /** @description SELSKAP (the company) or KONSERN (group accounts) */
            regnskapstype: string;
            /** Format: date */
            periodFrom: string | null;
            /** Format: date */
            periodTo: string;
            currency: string | null;
            revenue: number | null;
            operatingProfit: number | null;
            /** @description The same value as operatingProfit, under the name Orakel uses */
            operatingResult: number | null;
            netResult: number | null;
            equity: number | null;
            totalAssets: number | null;
            totalLiabilities: number | null;
            /** @description Average number of employees in the accounting year, where the filing states it */
            averageEmployees: number | null;
            /** @description netResult / revenue, % */
            profitMargin: number | null;
            /** @description operatingProfit / revenue, % */
            operatingMargin: number | null;
            /** @description netResult / equity, % (positive equity only) */
            returnOnEquity: number | null;
            /** @description equity / totalAssets, % */
            equityRatio: number | null;
            /** @description revenue change from the previous year, % */
            revenueGrowthYoY: number | null;
        };
        /**
         * @example {
         *       "roleTypeCode": "DAGL",
         *       "roleTypeDescription": "Daglig leder/ adm.direktør",
         *       "groupCode": "DAGL",
         *       "groupDescription": "Daglig leder/ adm.direktør",
         *       "personFirstName": "Kari",
         *       "personMiddleName": null,
         *       "personLastName": "Nordmann",
         *       "personBirthYear": 1971,
         *       "entityOrgNumber": null,
         *       "entityName": null,
         *       "electedBy": null,
         *       "ownershipPercent": null
         *     }
         */
        Role: {
            /** @description e.g. DAGL (CEO), LEDE (board chair), MEDL, NEST, VARA, REVI, REGN */
            roleTypeCode: string;
            roleTypeDescription: string | null;
            groupCode: string | null;
            groupDescription: string | null;
            personFirstName: string | null;
            personMiddleName: string | null;
            personLastName: string | null;
            /** @description Year only; the full birth date is never stored */
            personBirthYear: number | null;
            entityOrgNumber: string | null;
            entityName: string | null;
            electedBy: string | null;
            ownershipPercent: number | null;
        };
        /**
         * @example {
         *       "orgNumber": "973152351",
         *       "name": "EQUINOR ASA AVD FORUS",
         *       "orgFormCode": "BEDR",
         *       "naceCode1": "06.100",
         *       "naceDescription1": "Utvinning av råolje",
         *       "employeeCount": 1800,
         *       "addressStreet": "Forusbeen 50",
         *       "addressPostalCode": "4035",
         *       "addressCity": "STAVANGER",
         *       "addressMunicipality": "STAVANGER",
         *       "addressMuniNo": "1103",
         *       "addressLat": 58.8916,
         *       "addressLng": 5.7211,
         *       "startDate": "1995-03-01",
         *       "closureDate": null,
         *       "isDeleted": false
         *     }
         */
        SubUnit: {
            orgNumber: string;
            name: string;
            orgFormCode: string | null;
            naceCode1: string | null;
            naceDescription1: string | null;
            employeeCount: number | null;
            addressStreet: string | null;
            addressPostalCode: string | null;
            addressCity: string | null;
            addressMunicipality: string | null;
            addressMuniNo: string | null;
            addressLat: number | null;
            addressLng: number | null;
            /** Format: date */
            startDate: string | null;
            /** Format: date */
            closureDate: string | null;
            isDeleted: boolean;
        };
        /**
         * @example {
         *       "id": "4812",
         *       "licenseNumber": "0301-2024-00153",
         *       "orgNumber": "912345671",
         *       "registerType": "Alkoholsbevilling",
         *       "licenseTypeCode": "01SKJE",
         *       "licenseTypeDescription": "Skjenkebevilling",
         *       "venueName": "Kaffebar Grünerløkka",
         *       "venueOrgNumber": "998877665",
         *       "productGroups": [
         *         "Gruppe 1",
         *         "Gruppe 2"
         *       ],
         *       "municipality": "Oslo",
         *       "municipalityNo": "0301",
         *       "issuingAuthority": "Oslo kommune",
         *       "validFrom": "2024-07-01T00:00:00.000Z",
         *       "validTo": "2028-06-30T00:00:00.000Z"
         *     }
         */
        License: {
            id: string;
            licenseNumber: string;
            orgNumber: string | null;
            /** @description Alkoholsbevilling or Tobakksbevilling */
            registerType: string;
            licenseTypeCode: string;
            licenseTypeDescription: string | null;
            venueName: string | null;
            venueOrgNumber: string | null;
            productGroups: string[];
            municipality: string | null;
            municipalityNo: string | null;
            issuingAuthority: string | null;
            /** Format: date-time */
            validFrom: string | null;
            /** Format: date-time */
            validTo: string | null;
        };
        /**
         * @example {
         *       "id": "1042",
         *       "orgNumber": "923609016",
         *       "country": "NO",
         *       "name": "EQUINOR ASA",
         *       "orgFormCode": "ASA",
         *       "orgFormDescription": "Allmennaksjeselskap",
         *       "naceCode1": "06.100",
         *       "naceDescription1": "Utvinning av råolje",
         *       "naceCode2": null,
         *       "naceDescription2": null,
         *       "naceCode3": null,
         *       "naceDescription3": null,
         *       "sectorCode": "1120",
         *       "employeeCount": 21408,
         *       "hasRegisteredEmployees": true,
         *       "businessAddressStreet": "Forusbeen 50",
         *       "businessAddressPostalCode": "4035",
         *       "businessAddressCity": "STAVANGER",
         *       "businessAddressMunicipality": "STAVANGER",
         *       "businessAddressMuniNo": "1103",
         *       "businessAddressCountryCode": "NO",
         *       "postalAddressStreet": "Postboks 8500 Forus",
         *       "postalAddressPostalCode": "4035",
         *       "postalAddressCity": "STAVANGER",
         *       "postalAddressMunicipality": "STAVANGER",
         *       "postalAddressMuniNo": "1103",
         *       "postalAddressCountryCode": "NO",
         *       "website": "https://www.equinor.com",
         *       "phone": "51 99 00 00",
         *       "parentOrgNumber": null,
         *       "isInGroup": true,
         *       "foundingDate": "1972-09-18",
         *       "registrationDate": "1995-03-12",
         *       "registeredInVat": true,
         *       "registeredInBiz": true,
         *       "isBankrupt": false,
         *       "isBeingDissolved": false,
         *       "isInForcedDissolution": false,
         *       "isDeleted": false,
         *       "deletedDate": null,
         *       "status": "active",
         *       "description": "Utvinning av olje og gass, fornybar energi og lavkarbonløsninger.",
         *       "lastSubmittedAccountsYear": "2024",
         *       "primaryDomain": "equinor.com",
         *       "enrichedDomains": [
         *         "equinor.com"
         *       ],
         *       "linkedinHandle": "equinor",
         *       "facebookHandle": "Equinor",
         *       "instagramHandle": "equinor",
         *       "twitterHandle": "Equinor",
         *       "technologies": [
         *         {
         *           "name": "Adobe Experience Manager",
         *           "category": "CMS",
         *           "confidence": 0.9
         *         }
         *       ],
         *       "hasAnyAdPixel": true,
         *       "marketingProtected": null,
         *       "majorityOwner": {
         *         "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
         *         "orgNumber": "912660680",
         *         "ownershipPct": 67,
         *         "year": 2024
         *       },
         *       "largestShareholder": {
         *         "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
         *         "orgNumber": "912660680",
         *         "ownershipPct": 67,
         *         "year": 2024
         *       },
         *       "createdAt": "2026-01-05T03:12:44.000Z",
         *       "updatedAt": "2026-04-20T12:34:56.000Z",
         *       "sizeClass": "large",
         *       "businessAddressMuni": "Stavanger",
         *       "signals": {
         *         "financialHealthScore": 84,
         *         "revenueCagr": 0.1217,
         *         "ownershipConcentrationPct": 67,
         *         "isForeignOwned": false,
         *         "isInDebtNegotiation": false,
         *         "explanation": {
         *           "financialHealthScore": {
         *             "rule": "Sum of points from the latest two filed years: equity ratio 30, profit margin 25, revenue trend 20, positive equity 15, a recent filing 10",
         *             "inputs": {
         *               "equityRatio": 0.3765,
         *               "profitMargin": 0.1122,
         *               "revenueTrend": -0.084,
         *               "equity": 41090000000,
         *               "cap": null
         *             },
         *             "year": 2024
         *           },
         *           "revenueCagr": {
         *             "rule": "(latest revenue / oldest revenue)^(1 / years between) - 1",
         *             "inputs": {
         *               "oldestYear": 2020,
         *               "oldestRevenue": 45818000000,
         *               "latestYear": 2024,
         *               "latestRevenue": 72543000000
         *             },
         *             "year": 2024
         *           },
         *           "ownershipConcentrationPct": {
         *             "rule": "The largest owner's share (%) in the latest register year, all share classes",
         *             "inputs": {
         *               "largestOwnerPct": 67
         *             },
         *             "year": 2024
         *           },
         *           "isForeignOwned": {
         *             "rule": "Owners registered outside the company’s country hold more than 50 %",
         *             "inputs": {
         *               "foreignOwnedPct": 4.2
         *             },
         *             "year": 2024
         *           },
         *           "isInDebtNegotiation": {
         *             "rule": "The registry shows reconstruction or debt negotiation",
         *             "inputs": {
         *               "isInDebtNegotiation": false
         *             },
         *             "year": null
         *           }
         *         }
         *       },
         *       "financials": [
         *         {
         *           "orgNumber": "923609016",
         *           "regnskapstype": "SELSKAP",
         *           "periodFrom": "2024-01-01",
         *           "periodTo": "2024-12-31",
         *           "currency": "USD",
         *           "revenue": 72543000000,
         *           "operatingProfit": 13001000000,
         *           "operatingResult": 13001000000,
         *           "netResult": 8141000000,
         *           "equity": 41090000000,
         *           "totalAssets": 109150000000,
         *           "totalLiabilities": 68060000000,
         *           "averageEmployees": null,
         *           "profitMargin": 11.22,
         *           "operatingMargin": 17.92,
         *           "returnOnEquity": 19.81,
         *           "equityRatio": 37.65,
         *           "revenueGrowthYoY": -8.4
         *         }
         *       ],
         *       "roles": [
         *         {
         *           "roleTypeCode": "DAGL",
         *           "roleTypeDescription": "Daglig leder/ adm.direktør",
         *           "groupCode": "DAGL",
         *           "groupDescription": "Daglig leder/ adm.direktør",
         *           "personFirstName": "Kari",
         *           "personMiddleName": null,
         *           "personLastName": "Nordmann",
         *           "personBirthYear": 1971,
         *           "entityOrgNumber": null,
         *           "entityName": null,
         *           "electedBy": null,
         *           "ownershipPercent": null
         *         }
         *       ],
         *       "subUnits": [
         *         {
         *           "orgNumber": "973152351",
         *           "name": "EQUINOR ASA AVD FORUS",
         *           "orgFormCode": "BEDR",
         *           "naceCode1": "06.100",
         *           "naceDescription1": "Utvinning av råolje",
         *           "employeeCount": 1800,
         *           "addressStreet": "Forusbeen 50",
         *           "addressPostalCode": "4035",
         *           "addressCity": "STAVANGER",
         *           "addressMunicipality": "STAVANGER",
         *           "addressMuniNo": "1103",
         *           "addressLat": 58.8916,
         *           "addressLng": 5.7211,
         *           "startDate": "1995-03-01",
         *           "closureDate": null,
         *           "isDeleted": false
         *         }
         *       ],
         *       "licenses": [],
         *       "_sources": {
         *         "attribution": [
         *           "Brønnøysundregistrene",
         *           "Regnskapsregisteret"
         *         ],
         *         "fields": {
         *           "companyCore": "Brønnøysundregistrene",
         *           "roles": "Brønnøysundregistrene",
         *           "financials": "Regnskapsregisteret",
         *           "financialRatios": {
         *             "source": "Regnskapsregisteret",
         *             "computed": true
         *           },
         *           "industryLabel": "SSB Klass",
         *           "orgFormLabel": "SSB Klass",
         *           "countryLabel": "SSB Klass",
         *           "signals": {
         *             "source": "Regnskapsregisteret",
         *             "computed": true
         *           }
         *         }
         *       }
         *     }
         */
        CompanyRecord: {
            id: string;
            orgNumber: string;
            /** @enum {string} */
            country: "NO" | "FI" | "SE" | "DK";
            name: string;
            orgFormCode: string | null;
            orgFormDescription: string | null;
            naceCode1: string | null;
            naceDescription1: string | null;
            naceCode2: string | null;
            naceDescription2: string | null;
            naceCode3: string | null;
            naceDescription3: string | null;
            sectorCode: string | null;
            employeeCount: number | null;
            /** @description DK: the interval CVR registers when no exact count is given (employeeCount is its lower bound), e.g. "5-9" */
            employeeCountRange?: string;
            hasRegisteredEmployees: boolean | null;
            businessAddressStreet: string | null;
            businessAddressPostalCode: string | null;
            businessAddressCity: string | null;
            businessAddressMunicipality: string | null;
            businessAddressMuniNo: string | null;
            businessAddressCountryCode: string | null;
            postalAddressStreet: string | null;
            postalAddressPostalCode: string | null;
            postalAddressCity: string | null;
            postalAddressMunicipality: string | null;
            postalAddressMuniNo: string | null;
            postalAddressCountryCode: string | null;
            /** @description The homepage the registry holds, as a URL: "https://" is put before a value without a scheme; null when none */
            website: string | null;
            phone: string | null;
            parentOrgNumber: string | null;
            isInGroup: boolean;
            /** Format: date */
            foundingDate: string | null;
            /** Format: date */
            registrationDate: string | null;
            registeredInVat: boolean | null;
            registeredInBiz: boolean | null;
            isBankrupt: boolean;
            isBeingDissolved: boolean;
            isInForcedDissolution: boolean;
            isDeleted: boolean;
            /** Format: date */
            deletedDate: string | null;
            status: string | null;
            description: string | null;
            lastSubmittedAccountsYear: string | null;
            primaryDomain: string | null;
            enrichedDomains: string[];
            linkedinHandle: string | null;
            facebookHandle: string | null;
            instagramHandle: string | null;
            twitterHandle: string | null;
            technologies: {
                name: string;
                category: string;
                confidence: number;
            }[];
            hasAnyAdPixel: boolean;
            /** @description The company has declined advertising in its register: DK CVR's reklamebeskyttet, SE Bolagsverket's reklamspärr. null where the country has no such register (NO, FI) or the register has not said. CRM pushes skip true unless the destination allows them. */
            marketingProtected: boolean | null;
            majorityOwner?: {
                name: string | null;
                orgNumber: string | null;
                ownershipPct: number;
                year: number;
            } | null;
            largestShareholder?: {
                name: string | null;
                orgNumber: string | null;
                ownershipPct: number;
                year: number;
            } | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /**
             * @description EU SME definition (Commission Recommendation 2003/361/EC) on the latest employee count and the latest filed revenue in EUR (fixed rates, ECB 2024 annual averages: 11.629 NOK, 11.433 SEK, 7.4589 DKK per EUR): fewer than 50 employees and at most EUR 10 m -> small (micro included), fewer than 250 and at most EUR 50 m -> medium, else large; the larger class of the two figures decides, one alone when the other is unknown; null when neither is known
             * @enum {string|null}
             */
            sizeClass: "small" | "medium" | "large" | null;
            /** @description Name of the business address's municipality (the reference list's name for businessAddressMuniNo, else the registry's) */
            businessAddressMuni: string | null;
            signals: components["schemas"]["Signals"];
            financials: components["schemas"]["Financial"][];
            roles: components["schemas"]["Role"][];
            subUnits: components["schemas"]["SubUnit"][];
            licenses: components["schemas"]["License"][];
            /** @description Open competitions (deadline ahead, no result) with this company as buyer */
            activeTenders?: number;
            /** @description The company's latest competition notice as buyer */
            latestTenderUrl?: string | null;
            awardedContracts?: {
                /** @description Result notices naming this company as a winner */
                count: number;
                latest: {
                    noticeId: string;
                    title: string;
                    value: number | null;
                    currency: string | null;
                    /** Format: date-time */
                    publishedDate: string | null;
                    url: string;
                } | null;
            };
            _sources: components["schemas"]["Sources"];
        };
        /**
         * @example {
         *       "id": "1042",
         *       "orgNumber": "923609016",
         *       "country": "NO",
         *       "name": "EQUINOR ASA",
         *       "orgFormCode": "ASA",
         *       "orgFormDescription": "Allmennaksjeselskap",
         *       "naceCode1": "06.100",
         *       "naceDescription1": "Utvinning av råolje",
         *       "naceCode2": null,
         *       "naceDescription2": null,
         *       "naceCode3": null,
         *       "naceDescription3": null,
         *       "sectorCode": "1120",
         *       "employeeCount": 21408,
         *       "hasRegisteredEmployees": true,
         *       "businessAddressStreet": "Forusbeen 50",
         *       "businessAddressPostalCode": "4035",
         *       "businessAddressCity": "STAVANGER",
         *       "businessAddressMunicipality": "STAVANGER",
         *       "businessAddressMuniNo": "1103",
         *       "businessAddressCountryCode": "NO",
         *       "postalAddressStreet": "Postboks 8500 Forus",
         *       "postalAddressPostalCode": "4035",
         *       "postalAddressCity": "STAVANGER",
         *       "postalAddressMunicipality": "STAVANGER",
         *       "postalAddressMuniNo": "1103",
         *       "postalAddressCountryCode": "NO",
         *       "website": "https://www.equinor.com",
         *       "phone": "51 99 00 00",
         *       "parentOrgNumber": null,
         *       "isInGroup": true,
         *       "foundingDate": "1972-09-18",
         *       "registrationDate": "1995-03-12",
         *       "registeredInVat": true,
         *       "registeredInBiz": true,
         *       "isBankrupt": false,
         *       "isBeingDissolved": false,
         *       "isInForcedDissolution": false,
         *       "isDeleted": false,
         *       "deletedDate": null,
         *       "status": "active",
         *       "description": "Utvinning av olje og gass, fornybar energi og lavkarbonløsninger.",
         *       "lastSubmittedAccountsYear": "2024",
         *       "primaryDomain": "equinor.com",
         *       "enrichedDomains": [
         *         "equinor.com"
         *       ],
         *       "linkedinHandle": "equinor",
         *       "facebookHandle": "Equinor",
         *       "instagramHandle": "equinor",
         *       "twitterHandle": "Equinor",
         *       "technologies": [
         *         {
         *           "name": "Adobe Experience Manager",
         *           "category": "CMS",
         *           "confidence": 0.9
         *         }
         *       ],
         *       "hasAnyAdPixel": true,
         *       "marketingProtected": null,
         *       "majorityOwner": {
         *         "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
         *         "orgNumber": "912660680",
         *         "ownershipPct": 67,
         *         "year": 2024
         *       },
         *       "largestShareholder": {
         *         "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
         *         "orgNumber": "912660680",
         *         "ownershipPct": 67,
         *         "year": 2024
         *       },
         *       "createdAt": "2026-01-05T03:12:44.000Z",
         *       "updatedAt": "2026-04-20T12:34:56.000Z",
         *       "naceName": "Utvinning av råolje",
         *       "orgFormName": "Allmennaksjeselskap",
         *       "countryName": "Norge",
         *       "municipalityName": "Stavanger",
         *       "countyCode": "11",
         *       "countyName": "Rogaland",
         *       "sizeClass": "large",
         *       "businessAddressMuni": "Stavanger",
         *       "signals": {
         *         "financialHealthScore": 84,
         *         "revenueCagr": 0.1217,
         *         "ownershipConcentrationPct": 67,
         *         "isForeignOwned": false,
         *         "isInDebtNegotiation": false,
         *         "explanation": {
         *           "financialHealthScore": {
         *             "rule": "Sum of points from the latest two filed years: equity ratio 30, profit margin 25, revenue trend 20, positive equity 15, a recent filing 10",
         *             "inputs": {
         *               "equityRatio": 0.3765,
         *               "profitMargin": 0.1122,
         *               "revenueTrend": -0.084,
         *               "equity": 41090000000,
         *               "cap": null
         *             },
         *             "year": 2024
         *           },
         *           "revenueCagr": {
         *             "rule": "(latest revenue / oldest revenue)^(1 / years between) - 1",
         *             "inputs": {
         *               "oldestYear": 2020,
         *               "oldestRevenue": 45818000000,
         *               "latestYear": 2024,
         *               "latestRevenue": 72543000000
         *             },
         *             "year": 2024
         *           },
         *           "ownershipConcentrationPct": {
         *             "rule": "The largest owner's share (%) in the latest register year, all share classes",
         *             "inputs": {
         *               "largestOwnerPct": 67
         *             },
         *             "year": 2024
         *           },
         *           "isForeignOwned": {
         *             "rule": "Owners registered outside the company’s country hold more than 50 %",
         *             "inputs": {
         *               "foreignOwnedPct": 4.2
         *             },
         *             "year": 2024
         *           },
         *           "isInDebtNegotiation": {
         *             "rule": "The registry shows reconstruction or debt negotiation",
         *             "inputs": {
         *               "isInDebtNegotiation": false
         *             },
         *             "year": null
         *           }
         *         }
         *       },
         *       "financials": [
         *         {
         *           "orgNumber": "923609016",
         *           "regnskapstype": "SELSKAP",
         *           "periodFrom": "2024-01-01",
         *           "periodTo": "2024-12-31",
         *           "currency": "USD",
         *           "revenue": 72543000000,
         *           "operatingProfit": 13001000000,
         *           "operatingResult": 13001000000,
         *           "netResult": 8141000000,
         *           "equity": 41090000000,
         *           "totalAssets": 109150000000,
         *           "totalLiabilities": 68060000000,
         *           "averageEmployees": null,
         *           "profitMargin": 11.22,
         *           "operatingMargin": 17.92,
         *           "returnOnEquity": 19.81,
         *           "equityRatio": 37.65,
         *           "revenueGrowthYoY": -8.4
         *         }
         *       ],
         *       "roles": [
         *         {
         *           "roleTypeCode": "DAGL",
         *           "roleTypeDescription": "Daglig leder/ adm.direktør",
         *           "groupCode": "DAGL",
         *           "groupDescription": "Daglig leder/ adm.direktør",
         *           "personFirstName": "Kari",
         *           "personMiddleName": null,
         *           "personLastName": "Nordmann",
         *           "personBirthYear": 1971,
         *           "entityOrgNumber": null,
         *           "entityName": null,
         *           "electedBy": null,
         *           "ownershipPercent": null
         *         }
         *       ],
         *       "subUnits": [
         *         {
         *           "orgNumber": "973152351",
         *           "name": "EQUINOR ASA AVD FORUS",
         *           "orgFormCode": "BEDR",
         *           "naceCode1": "06.100",
         *           "naceDescription1": "Utvinning av råolje",
         *           "employeeCount": 1800,
         *           "addressStreet": "Forusbeen 50",
         *           "addressPostalCode": "4035",
         *           "addressCity": "STAVANGER",
         *           "addressMunicipality": "STAVANGER",
         *           "addressMuniNo": "1103",
         *           "addressLat": 58.8916,
         *           "addressLng": 5.7211,
         *           "startDate": "1995-03-01",
         *           "closureDate": null,
         *           "isDeleted": false
         *         }
         *       ],
         *       "licenses": [],
         *       "_sources": {
         *         "attribution": [
         *           "Brønnøysundregistrene",
         *           "Regnskapsregisteret",
         *           "SSB Klass"
         *         ],
         *         "fields": {
         *           "companyCore": "Brønnøysundregistrene",
         *           "roles": "Brønnøysundregistrene",
         *           "financials": "Regnskapsregisteret",
         *           "financialRatios": {
         *             "source": "Regnskapsregisteret",
         *             "computed": true
         *           },
         *           "industryLabel": "SSB Klass",
         *           "orgFormLabel": "SSB Klass",
         *           "countryLabel": "SSB Klass",
         *           "signals": {
         *             "source": "Regnskapsregisteret",
         *             "computed": true
         *           }
         *         }
         *       }
         *     }
         */
        CompanyLookup: {
            id: string;
            orgNumber: string;
            /** @enum {string} */
            country: "NO" | "FI" | "SE" | "DK";
            name: string;
            orgFormCode: string | null;
            orgFormDescription: string | null;
            naceCode1: string | null;
            naceDescription1: string | null;
            naceCode2: string | null;
            naceDescription2: string | null;
            naceCode3: string | null;
            naceDescription3: string | null;
            sectorCode: string | null;
            employeeCount: number | null;
            /** @description DK: the interval CVR registers when no exact count is given (employeeCount is its lower bound), e.g. "5-9" */
            employeeCountRange?: string;
            hasRegisteredEmployees: boolean | null;
            businessAddressStreet: string | null;
            businessAddressPostalCode: string | null;
            businessAddressCity: string | null;
            businessAddressMunicipality: string | null;
            businessAddressMuniNo: string | null;
            businessAddressCountryCode: string | null;
            postalAddressStreet: string | null;
            postalAddressPostalCode: string | null;
            postalAddressCity: string | null;
            postalAddressMunicipality: string | null;
            postalAddressMuniNo: string | null;
            postalAddressCountryCode: string | null;
            /** @description The homepage the registry holds, as a URL: "https://" is put before a value without a scheme; null when none */
            website: string | null;
            phone: string | null;
            parentOrgNumber: string | null;
            isInGroup: boolean;
            /** Format: date */
            foundingDate: string | null;
            /** Format: date */
            registrationDate: string | null;
            registeredInVat: boolean | null;
            registeredInBiz: boolean | null;
            isBankrupt: boolean;
            isBeingDissolved: boolean;
            isInForcedDissolution: boolean;
            isDeleted: boolean;
            /** Format: date */
            deletedDate: string | null;
            status: string | null;
            description: string | null;
            lastSubmittedAccountsYear: string | null;
            primaryDomain: string | null;
            enrichedDomains: string[];
            linkedinHandle: string | null;
            facebookHandle: string | null;
            instagramHandle: string | null;
            twitterHandle: string | null;
            technologies: {
                name: string;
                category: string;
                confidence: number;
            }[];
            hasAnyAdPixel: boolean;
            /** @description The company has declined advertising in its register: DK CVR's reklamebeskyttet, SE Bolagsverket's reklamspärr. null where the country has no such register (NO, FI) or the register has not said. CRM pushes skip true unless the destination allows them. */
            marketingProtected: boolean | null;
            majorityOwner?: {
                name: string | null;
                orgNumber: string | null;
                ownershipPct: number;
                year: number;
            } | null;
            largestShareholder?: {
                name: string | null;
                orgNumber: string | null;
                ownershipPct: number;
                year: number;
            } | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            naceName?: string | null;
            orgFormName?: string | null;
            countryName?: string | null;
            municipalityName?: string | null;
            countyCode?: string | null;
            countyName?: string | null;
            /**
             * @description EU SME definition (Commission Recommendation 2003/361/EC) on the latest employee count and the latest filed revenue in EUR (fixed rates, ECB 2024 annual averages: 11.629 NOK, 11.433 SEK, 7.4589 DKK per EUR): fewer than 50 employees and at most EUR 10 m -> small (micro included), fewer than 250 and at most EUR 50 m -> medium, else large; the larger class of the two figures decides, one alone when the other is unknown; null when neither is known
             * @enum {string|null}
             */
            sizeClass: "small" | "medium" | "large" | null;
            /** @description Name of the business address's municipality (the reference list's name for businessAddressMuniNo, else the registry's) */
            businessAddressMuni: string | null;
            signals: components["schemas"]["Signals"];
            context?: {
                municipality: {
                    code: string | null;
                    companies: number;
                    medianEmployees: number | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    population?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    householdIncome?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    enterprises?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    enterprisesPer1000?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                };
                industry: {
                    naceDivision: string | null;
                    companies: number;
                    medianEmployees: number | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    averageMonthlyWage?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    enterprises?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    startupSurvivalRate?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                };
            };
            financials: components["schemas"]["Financial"][];
            roles: components["schemas"]["Role"][];
            subUnits: components["schemas"]["SubUnit"][];
            licenses: components["schemas"]["License"][];
            /** @description Open competitions (deadline ahead, no result) with this company as buyer */
            activeTenders?: number;
            /** @description The company's latest competition notice as buyer */
            latestTenderUrl?: string | null;
            awardedContracts?: {
                /** @description Result notices naming this company as a winner */
                count: number;
                latest: {
                    noticeId: string;
                    title: string;
                    value: number | null;
                    currency: string | null;
                    /** Format: date-time */
                    publishedDate: string | null;
                    url: string;
                } | null;
            };
            _sources: components["schemas"]["Sources"];
        };
        /**
         * @example {
         *       "id": "1042",
         *       "orgNumber": "923609016",
         *       "country": "NO",
         *       "name": "EQUINOR ASA",
         *       "orgFormCode": "ASA",
         *       "orgFormDescription": "Allmennaksjeselskap",
         *       "naceCode1": "06.100",
         *       "naceDescription1": "Utvinning av råolje",
         *       "naceCode2": null,
         *       "naceDescription2": null,
         *       "naceCode3": null,
         *       "naceDescription3": null,
         *       "sectorCode": "1120",
         *       "employeeCount": 21408,
         *       "hasRegisteredEmployees": true,
         *       "businessAddressStreet": "Forusbeen 50",
         *       "businessAddressPostalCode": "4035",
         *       "businessAddressCity": "STAVANGER",
         *       "businessAddressMunicipality": "STAVANGER",
         *       "businessAddressMuniNo": "1103",
         *       "businessAddressCountryCode": "NO",
         *       "postalAddressStreet": "Postboks 8500 Forus",
         *       "postalAddressPostalCode": "4035",
         *       "postalAddressCity": "STAVANGER",
         *       "postalAddressMunicipality": "STAVANGER",
         *       "postalAddressMuniNo": "1103",
         *       "postalAddressCountryCode": "NO",
         *       "website": "https://www.equinor.com",
         *       "phone": "51 99 00 00",
         *       "parentOrgNumber": null,
         *       "isInGroup": true,
         *       "foundingDate": "1972-09-18",
         *       "registrationDate": "1995-03-12",
         *       "registeredInVat": true,
         *       "registeredInBiz": true,
         *       "isBankrupt": false,
         *       "isBeingDissolved": false,
         *       "isInForcedDissolution": false,
         *       "isDeleted": false,
         *       "deletedDate": null,
         *       "status": "active",
         *       "description": "Utvinning av olje og gass, fornybar energi og lavkarbonløsninger.",
         *       "lastSubmittedAccountsYear": "2024",
         *       "primaryDomain": "equinor.com",
         *       "enrichedDomains": [
         *         "equinor.com"
         *       ],
         *       "linkedinHandle": "equinor",
         *       "facebookHandle": "Equinor",
         *       "instagramHandle": "equinor",
         *       "twitterHandle": "Equinor",
         *       "technologies": [
         *         {
         *           "name": "Adobe Experience Manager",
         *           "category": "CMS",
         *           "confidence": 0.9
         *         }
         *       ],
         *       "hasAnyAdPixel": true,
         *       "marketingProtected": null,
         *       "majorityOwner": {
         *         "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
         *         "orgNumber": "912660680",
         *         "ownershipPct": 67,
         *         "year": 2024
         *       },
         *       "largestShareholder": {
         *         "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
         *         "orgNumber": "912660680",
         *         "ownershipPct": 67,
         *         "year": 2024
         *       },
         *       "createdAt": "2026-01-05T03:12:44.000Z",
         *       "updatedAt": "2026-04-20T12:34:56.000Z",
         *       "naceName": "Utvinning av råolje",
         *       "orgFormName": "Allmennaksjeselskap",
         *       "countryName": "Norge",
         *       "municipalityName": "Stavanger",
         *       "countyCode": "11",
         *       "countyName": "Rogaland",
         *       "financials": [
         *         {
         *           "orgNumber": "923609016",
         *           "regnskapstype": "SELSKAP",
         *           "periodFrom": "2024-01-01",
         *           "periodTo": "2024-12-31",
         *           "currency": "USD",
         *           "revenue": 72543000000,
         *           "operatingProfit": 13001000000,
         *           "operatingResult": 13001000000,
         *           "netResult": 8141000000,
         *           "equity": 41090000000,
         *           "totalAssets": 109150000000,
         *           "totalLiabilities": 68060000000,
         *           "averageEmployees": null,
         *           "profitMargin": 11.22,
         *           "operatingMargin": 17.92,
         *           "returnOnEquity": 19.81,
         *           "equityRatio": 37.65,
         *           "revenueGrowthYoY": -8.4
         *         }
         *       ],
         *       "roles": [
         *         {
         *           "roleTypeCode": "DAGL",
         *           "roleTypeDescription": "Daglig leder/ adm.direktør",
         *           "groupCode": "DAGL",
         *           "groupDescription": "Daglig leder/ adm.direktør",
         *           "personFirstName": "Kari",
         *           "personMiddleName": null,
         *           "personLastName": "Nordmann",
         *           "personBirthYear": 1971,
         *           "entityOrgNumber": null,
         *           "entityName": null,
         *           "electedBy": null,
         *           "ownershipPercent": null
         *         }
         *       ],
         *       "_sources": {
         *         "attribution": [
         *           "Brønnøysundregistrene",
         *           "Regnskapsregisteret",
         *           "SSB Klass"
         *         ],
         *         "fields": {
         *           "companyCore": "Brønnøysundregistrene",
         *           "roles": "Brønnøysundregistrene",
         *           "financials": "Regnskapsregisteret",
         *           "financialRatios": {
         *             "source": "Regnskapsregisteret",
         *             "computed": true
         *           },
         *           "industryLabel": "SSB Klass",
         *           "orgFormLabel": "SSB Klass",
         *           "countryLabel": "SSB Klass"
         *         }
         *       },
         *       "sizeClass": "large",
         *       "businessAddressMuni": "Stavanger"
         *     }
         */
        CompanyRow: {
            id: string;
            orgNumber: string;
            /** @enum {string} */
            country: "NO" | "FI" | "SE" | "DK";
            name: string;
            orgFormCode: string | null;
            orgFormDescription: string | null;
            naceCode1: string | null;
            naceDescription1: string | null;
            naceCode2: string | null;
            naceDescription2: string | null;
            naceCode3: string | null;
            naceDescription3: string | null;
            sectorCode: string | null;
            employeeCount: number | null;
            /** @description DK: the interval CVR registers when no exact count is given (employeeCount is its lower bound), e.g. "5-9" */
            employeeCountRange?: string;
            hasRegisteredEmployees: boolean | null;
            businessAddressStreet: string | null;
            businessAddressPostalCode: string | null;
            businessAddressCity: string | null;
            businessAddressMunicipality: string | null;
            businessAddressMuniNo: string | null;
            businessAddressCountryCode: string | null;
            postalAddressStreet: string | null;
            postalAddressPostalCode: string | null;
            postalAddressCity: string | null;
            postalAddressMunicipality: string | null;
            postalAddressMuniNo: string | null;
            postalAddressCountryCode: string | null;
            /** @description The homepage the registry holds, as a URL: "https://" is put before a value without a scheme; null when none */
            website: string | null;
            phone: string | null;
            parentOrgNumber: string | null;
            isInGroup: boolean;
            /** Format: date */
            foundingDate: string | null;
            /** Format: date */
            registrationDate: string | null;
            registeredInVat: boolean | null;
            registeredInBiz: boolean | null;
            isBankrupt: boolean;
            isBeingDissolved: boolean;
            isInForcedDissolution: boolean;
            isDeleted: boolean;
            /** Format: date */
            deletedDate: string | null;
            status: string | null;
            description: string | null;
            lastSubmittedAccountsYear: string | null;
            primaryDomain: string | null;
            enrichedDomains: string[];
            linkedinHandle: string | null;
            facebookHandle: string | null;
            instagramHandle: string | null;
            twitterHandle: string | null;
            technologies: {
                name: string;
                category: string;
                confidence: number;
            }[];
            hasAnyAdPixel: boolean;
            /** @description The company has declined advertising in its register: DK CVR's reklamebeskyttet, SE Bolagsverket's reklamspärr. null where the country has no such register (NO, FI) or the register has not said. CRM pushes skip true unless the destination allows them. */
            marketingProtected: boolean | null;
            majorityOwner?: {
                name: string | null;
                orgNumber: string | null;
                ownershipPct: number;
                year: number;
            } | null;
            largestShareholder?: {
                name: string | null;
                orgNumber: string | null;
                ownershipPct: number;
                year: number;
            } | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            naceName?: string | null;
            orgFormName?: string | null;
            countryName?: string | null;
            municipalityName?: string | null;
            countyCode?: string | null;
            countyName?: string | null;
            context?: {
                municipality: {
                    code: string | null;
                    companies: number;
                    medianEmployees: number | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    population?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    householdIncome?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    enterprises?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    enterprisesPer1000?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                };
                industry: {
                    naceDivision: string | null;
                    companies: number;
                    medianEmployees: number | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    averageMonthlyWage?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    enterprises?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                    /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                    startupSurvivalRate?: {
                        value: number;
                        /** @description e.g. persons, NOK, EUR per month, percent */
                        unit: string;
                        /** @description Reference year of the figure */
                        year: number;
                        /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                        source: string;
                        /** @description The bureau's table id (two for a computed figure, joined with +) */
                        table: string;
                        /**
                         * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                         * @enum {string}
                         */
                        level: "municipality" | "division" | "section" | "grouping";
                        /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                        label: string | null;
                        /** @description The bureau's licence of the figure */
                        licence: string;
                        /** @description Startup survival: the year the firms started */
                        cohort?: number;
                        /** @description true: computed by us from the tables named */
                        computed?: boolean;
                    } | {
                        /** @enum {boolean} */
                        unavailable: true;
                        /** @description Why the bureau has no figure for this measure at this level */
                        reason: string;
                        source: string;
                        /** @description The table that was checked, if any */
                        table: string | null;
                    } | null;
                };
            };
            financials: components["schemas"]["Financial"][];
            roles: components["schemas"]["Role"][];
            _sources: components["schemas"]["Sources"];
            /**
             * @description EU SME definition (Commission Recommendation 2003/361/EC) on the latest employee count and the latest filed revenue in EUR (fixed rates, ECB 2024 annual averages: 11.629 NOK, 11.433 SEK, 7.4589 DKK per EUR): fewer than 50 employees and at most EUR 10 m -> small (micro included), fewer than 250 and at most EUR 50 m -> medium, else large; the larger class of the two figures decides, one alone when the other is unknown; null when neither is known
             * @enum {string|null}
             */
            sizeClass: "small" | "medium" | "large" | null;
            /** @description Name of the business address's municipality (the reference list's name for businessAddressMuniNo, else the registry's) */
            businessAddressMuni: string | null;
        };
        /**
         * @example {
         *       "noticeId": "2026-107304",
         *       "doffinId": "2026-107304",
         *       "tedId": "712345-2026",
         *       "eformsId": "3f1c9a52-6d0e-4b7a-9a7e-1c2d3e4f5a60",
         *       "procedureId": "b7e21f04-58c3-4d1a-8e6f-0a9b8c7d6e51",
         *       "noticeType": "competition",
         *       "noticeTypeCode": "cn-standard",
         *       "status": "ACTIVE",
         *       "title": "Rammeavtale for renhold av skolebygg",
         *       "description": "Utdanningsetaten inviterer til åpen anbudskonkurranse om rammeavtale for daglig renhold.",
         *       "orgNumber": "974760673",
         *       "contractingAuthority": "Oslo kommune v/ Utdanningsetaten",
         *       "country": "NO",
         *       "cpvCodes": [
         *         "90911200",
         *         "90919200"
         *       ],
         *       "procedureType": "open",
         *       "publishedDate": "2026-11-02T08:15:00.000Z",
         *       "deadline": "2026-12-15T11:00:00.000Z",
         *       "estimatedValue": 12500000,
         *       "currency": "NOK",
         *       "awardedValue": null,
         *       "lots": [
         *         {
         *           "lotId": "LOT-0001",
         *           "title": "Delområde 1: Oslo sentrum og øst",
         *           "cpvCodes": [
         *             "90911200"
         *           ],
         *           "estimatedValue": 7000000,
         *           "currency": "NOK",
         *           "deadline": "2026-12-15T11:00:00.000Z",
         *           "nutsCodes": [
         *             "NO081"
         *           ]
         *         }
         *       ],
         *       "placeOfPerformance": [
         *         "NO081"
         *       ],
         *       "winners": [],
         *       "url": "https://www.doffin.no/notices/2026-107304",
         *       "sources": [
         *         "doffin",
         *         "ted"
         *       ],
         *       "updatedAt": "2026-11-05T06:00:00.000Z"
         *     }
         */
        ProcurementNotice: {
            /** @description Doffin id (2026-107304), else the TED publication number (712345-2026) */
            noticeId: string;
            doffinId: string | null;
            tedId: string | null;
            /** @description eForms notice identifier (BT-701), the same in Doffin and TED */
            eformsId: string;
            procedureId: string | null;
            noticeType: "competition" | "result" | "cancellation";
            /** @description eForms notice type, e.g. cn-standard, can-standard */
            noticeTypeCode: string | null;
            /** @description ACTIVE while the tender deadline is ahead, CLOSED after it, AWARDED once a result names a winner, CANCELLED */
            status: "ACTIVE" | "CLOSED" | "AWARDED" | "CANCELLED";
            title: string;
            description: string | null;
            /** @description The buyer's org number; null when the notice's is not a valid one */
            orgNumber: string | null;
            contractingAuthority: string | null;
            /** @description The buyer's country, ISO 3166 alpha-2 */
            country: string | null;
            cpvCodes: string[];
            /** @description eForms procurement-procedure-type, e.g. open, restricted */
            procedureType: string | null;
            /** Format: date-time */
            publishedDate: string | null;
            /** Format: date-time */
            deadline: string | null;
            estimatedValue: number | null;
            currency: string | null;
            awardedValue: number | null;
            lots: {
                lotId: string;
                title: string | null;
                cpvCodes: string[];
                estimatedValue: number | null;
                currency: string | null;
                /** Format: date-time */
                deadline: string | null;
                nutsCodes: string[];
            }[];
            placeOfPerformance: string[];
            winners: {
                name: string | null;
                /** @description Norwegian org number (valid mod-11); null for other ids */
                orgNumber: string | null;
                /** @description The company id as the notice writes it */
                companyId: string | null;
                /** @description ISO 3166 alpha-2 */
                country: string | null;
                value: number | null;
                currency: string | null;
                lots: string[];
            }[];
            /** @description The notice's public page (Doffin, else TED) */
            url: string;
            sources: string[];
            /** Format: date-time */
            updatedAt: string;
        };
        GroupNode: {
            orgNumber: string;
            name: string;
            orgFormCode: string | null;
            employeeCount: number | null;
            children: components["schemas"]["GroupNode"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request id (yours when you sent a valid `X-Request-Id`, else generated); quote it in reports. */
        XRequestId: string;
        /** @description Requests allowed per minute for this key. */
        RateLimitLimit: number;
        /** @description Requests left in the current window. */
        RateLimitRemaining: number;
        /** @description Seconds until the window resets. */
        RateLimitReset: number;
        /** @description The policy, e.g. `60;w=60` (limit; window in seconds). */
        RateLimitPolicy: string;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    postKeysRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "projectName": "Acme CRM sync",
                 *       "email": "dev@acme.example",
                 *       "description": "Nightly enrichment of our customer list"
                 *     }
                 */
                "application/json": {
                    /** @description Unique among active keys (case-insensitive) */
                    projectName: string;
                    /**
                     * Format: email
                     * @description Receives the setup link
                     */
                    email: string;
                    description?: string;
                    /** @description Honeypot: leave empty */
                    website?: string;
                };
            };
        };
        responses: {
            /** @description Returned when the honeypot field is filled: no key is created. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "raw": "ncd_EXAMPLEkeyShownOnceNeverStoredInClear0",
                     *       "keyPrefix": "ncd_EXAMPLEk",
                     *       "projectName": "Acme CRM sync",
                     *       "tier": "free",
                     *       "setupUrl": "http://localhost:3000/setup?key=ncd_EXAMPLEkeyShownOnceNeverStoredInClear0",
                     *       "limits": {
                     *         "rateLimitPerMinute": 20,
                     *         "dailyLimit": 500,
                     *         "monthlyLimit": 5000,
                     *         "maxPageSize": 20
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The API key. Shown once; only a keyed hash is stored. */
                        raw: string;
                        keyPrefix: string;
                        projectName: string;
                        tier: string;
                        setupUrl: string;
                        /**
                         * @example {
                         *       "rateLimitPerMinute": 20,
                         *       "dailyLimit": 500,
                         *       "monthlyLimit": 5000,
                         *       "maxPageSize": 20
                         *     }
                         */
                        limits: {
                            /** @description Requests per minute; null = unlimited */
                            rateLimitPerMinute: number | null;
                            /** @description Requests per UTC day; null = unlimited */
                            dailyLimit: number | null;
                            /** @description Requests per UTC month; null = unlimited */
                            monthlyLimit: number | null;
                            /** @description Largest page a list endpoint returns */
                            maxPageSize: number;
                        };
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: `project_name_taken`. See /errors */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `registration_limited`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postKeysRotate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "raw": "ncd_EXAMPLEreplacementKeyShownOnce00000000",
                     *       "keyPrefix": "ncd_EXAMPLEr",
                     *       "projectName": "Acme CRM sync",
                     *       "tier": "free",
                     *       "setupUrl": "http://localhost:3000/setup?key=ncd_EXAMPLEreplacementKeyShownOnce00000000",
                     *       "rotatedFrom": "ncd_EXAMPLEk"
                     *     }
                     */
                    "application/json": {
                        /** @description The new API key, shown once */
                        raw: string;
                        keyPrefix: string;
                        projectName: string;
                        tier: string;
                        /** @description The new key's setup page link (usage, limits, quick starts) */
                        setupUrl: string;
                        /** @description keyPrefix of the key that was deactivated */
                        rotatedFrom: string;
                    };
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `key_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getKeysUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "projectName": "Acme CRM sync",
                     *       "tier": "free",
                     *       "keyPrefix": "ncd_EXAMPLEk",
                     *       "limits": {
                     *         "rateLimitPerMinute": 20,
                     *         "dailyLimit": 500,
                     *         "monthlyLimit": 5000,
                     *         "maxPageSize": 20,
                     *         "canPush": false,
                     *         "requireFilterOnSearch": true
                     *       },
                     *       "usage": {
                     *         "today": 42,
                     *         "thisMonth": 1210,
                     *         "total": 8634,
                     *         "dailyRemaining": 458,
                     *         "monthlyRemaining": 3790
                     *       },
                     *       "resets": {
                     *         "daily": "2026-04-21T00:00:00.000Z",
                     *         "monthly": "2026-05-01T00:00:00.000Z"
                     *       },
                     *       "history": [
                     *         {
                     *           "day": "2026-04-19",
                     *           "count": 57
                     *         },
                     *         {
                     *           "day": "2026-04-20",
                     *           "count": 42
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        projectName: string;
                        tier: string;
                        keyPrefix: string;
                        limits: {
                            /** @description Requests per minute; null = unlimited */
                            rateLimitPerMinute: number | null;
                            /** @description Requests per UTC day; null = unlimited */
                            dailyLimit: number | null;
                            /** @description Requests per UTC month; null = unlimited */
                            monthlyLimit: number | null;
                            maxPageSize: number;
                            canPush: boolean;
                            requireFilterOnSearch: boolean;
                        };
                        usage: {
                            today: number;
                            thisMonth: number;
                            total: number;
                            /** @description null when unlimited */
                            dailyRemaining: number | null;
                            /** @description null when unlimited */
                            monthlyRemaining: number | null;
                        };
                        resets: {
                            /**
                             * Format: date-time
                             * @description Next UTC midnight
                             */
                            daily: string;
                            /**
                             * Format: date-time
                             * @description First of next month, UTC
                             */
                            monthly: string;
                        };
                        /** @description GET /api/keys/usage: requests counted on each of the last 30 UTC days, oldest first (today last) */
                        history?: {
                            /** Format: date */
                            day: string;
                            count: number;
                        }[];
                    };
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postAccessRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "projectName": "Acme CRM sync",
                 *       "email": "dev@acme.example",
                 *       "organisation": "Acme AS",
                 *       "requestedTier": "pro",
                 *       "message": "We enrich about 40 000 customers a month and push them to our CRM."
                 *     }
                 */
                "application/json": {
                    projectName: string;
                    /** Format: email */
                    email: string;
                    organisation?: string;
                    /** @enum {string} */
                    requestedTier: "pro" | "enterprise";
                    message?: string;
                    /** @description Honeypot: leave empty */
                    website?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "17",
                     *       "status": "pending",
                     *       "createdAt": "2026-04-20T12:34:56.000Z"
                     *     }
                     */
                    "application/json": {
                        id: string;
                        status: string;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `registration_limited`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: {
                "x-sync-secret"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description "ok", or "error" with status 503 */
                        status: string;
                        /** Format: date-time */
                        timestamp?: string;
                        database?: string;
                        engine?: string;
                        records?: {
                            companies: number;
                            financials: number;
                            roles: number;
                            inspections: number;
                            licenses: number;
                            procurementNotices: number;
                        };
                        /** @description One entry per source: brreg-updates, brreg-snapshot, regnskap, shareholders, inspections, licenses, prh, prh-financials, bolagsverket, bolagsverket-financials, sanctions, domains, coverage, statistics:NO, statistics:SE, statistics:FI, statistics:DK (and `sanctions:<list>` per screening list) */
                        dataSources?: {
                            [key: string]: {
                                /** @description End (or start, while running) of the latest run; null = never synced */
                                lastSync: string | null;
                                /** @description ok | error | running | never | degraded (an ok run that kept the previous data of some parts, listed in tables) */
                                status: string;
                                recordsProcessed: number;
                                lastSuccess: string | null;
                                /** @description Short reason when the latest run failed, or what part of an ok run did not succeed (e.g. a statistics table whose previous figures were kept) */
                                message?: string | null;
                                /** @description degraded: the tables of the run whose previous figures were kept (statistics:XX) */
                                tables?: {
                                    /** @description The bureau's table id */
                                    table: string;
                                    /** @description What did not fit or failed: the previous figures of the table were kept */
                                    problem: string;
                                }[];
                                /** @description prh-financials, bolagsverket-financials: filed documents the job could not read; the company keeps its other filings */
                                skipped?: {
                                    /** @description Filings skipped so far */
                                    total: number;
                                    /** @description The most recent, newest first */
                                    latest: {
                                        /** @description The registry's id of the filing (PRH businessId:financialDate, Bolagsverket dokumentId) */
                                        filing: string;
                                        orgNumber: string;
                                        /** @description Why it could not be read (malformed, truncated, no report in the ZIP, unknown taxonomy, a figure that does not parse, …) */
                                        reason: string;
                                        /** Format: date-time */
                                        at: string;
                                    }[];
                                };
                                /** @description Why the scheduler does not run this source's job here (e.g. its credentials are not set) */
                                notScheduled?: string;
                            };
                        };
                        /** @description Protection of the registries behind live fetches (README "Upstream protection") */
                        upstreams?: {
                            host: string;
                            /** @enum {string} */
                            breaker: "closed" | "open" | "half-open";
                            /** @description Shared request budget of the host (UPSTREAM_RATE_PER_SECOND) */
                            ratePerSecond: number;
                            /** @description Requests answered at once by the open breaker since start */
                            shortCircuited: number;
                            /** @description Requests refused for want of the shared budget since start */
                            throttled: number;
                            /** @description Failures in the breaker's rolling window */
                            failures: number;
                        }[];
                        liveFetch?: {
                            negativeCacheHours: number;
                            /** @description Numbers currently answered 404 without asking brreg */
                            rememberedNotFound: number;
                            /** @description Upstream requests per key and UTC day by tier; null is unlimited */
                            dailyBudgets: {
                                [key: string]: number | null;
                            };
                        };
                        /** @description This process's cache of serialised company records (README "Record cache") */
                        recordCache?: {
                            entries: number;
                            /** @description Estimated memory of the cached bodies */
                            bytes: number;
                            /** @description RECORD_CACHE_ENTRIES (0: off) */
                            maxEntries: number;
                            /** @description RECORD_CACHE_MB in bytes */
                            maxBytes: number;
                            hits: number;
                            misses: number;
                            /** @description hits / (hits + misses) since start */
                            hitRate: number;
                            /** @description Least recently used records dropped for room */
                            capacityEvictions: number;
                            /** @description Cached records dropped because they changed */
                            invalidations: number;
                            /** @description Lookups not served from the cache while it was not known fresh */
                            bypassed: number;
                            /** @description The last change poll began within 1 s: the cache serves */
                            following: boolean;
                        };
                        /** @description Change-feed pages read ahead for clients draining it (README "Draining the feed") */
                        feedReadAhead?: {
                            /** @description Pages read ahead and not yet asked for */
                            held: number;
                            /** @description Next pages read for clients following a cursor, since start */
                            started: number;
                            /** @description Requests answered with a page read ahead */
                            handedOver: number;
                            /** @description Pages asked for more than 1 s after their read began, read again */
                            expired: number;
                            /** @description Pages dropped unasked: a write through this process, or room */
                            dropped: number;
                        };
                        /** @description The read replicas of DATABASE_READ_URL (README "Scaling out"); empty without them */
                        replicas?: {
                            /** @description host:port of the replica (never its user or password) */
                            host: string;
                            /** @description Replay lag, from its replayed LSN against the primary; null while it cannot be reached */
                            lagMs: number | null;
                            /** @description Serving reads: in recovery, reachable, and lagging at most READ_REPLICA_MAX_LAG_MS */
                            inRotation: boolean;
                            /** @description pg_is_in_recovery() as the replica last answered it */
                            inRecovery: boolean | null;
                            /** @description Read connections this process gave it, since start */
                            reads: number;
                        }[];
                        /** @description This process's memory, in MiB */
                        memory?: {
                            /** @description Resident set size (with the embedded engine's thread) */
                            rssMb: number;
                            /** @description JavaScript heap reserved (main thread) */
                            heapTotalMb: number;
                            /** @description JavaScript heap in use (main thread) */
                            heapUsedMb: number;
                            /** @description Memory outside the heap held by JavaScript objects */
                            externalMb: number;
                            /** @description Of which buffers (cached bodies, sockets) */
                            arrayBuffersMb: number;
                        };
                    };
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database did not answer the probe; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "error",
                     *       "error": "Service unavailable",
                     *       "code": "service_unavailable",
                     *       "requestId": "6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "error";
                        error: string;
                        /** @enum {string} */
                        code: "service_unavailable";
                        requestId?: string;
                    };
                };
            };
        };
    };
    getMunicipalities: {
        parameters: {
            query?: {
                /**
                 * @description County code, zero-padded: two digits (e.g. 03); a Danish region has four (e.g. 1084)
                 * @example 03
                 */
                county?: string;
                /** @description NO (default), SE, FI or DK */
                country?: "NO" | "SE" | "FI" | "DK";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "countyCode": "03",
                     *           "countyName": "Oslo",
                     *           "municipalities": [
                     *             {
                     *               "code": "0301",
                     *               "name": "Oslo"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "countyCode": "11",
                     *           "countyName": "Rogaland",
                     *           "municipalities": [
                     *             {
                     *               "code": "1103",
                     *               "name": "Stavanger"
                     *             },
                     *             {
                     *               "code": "1108",
                     *               "name": "Sandnes"
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description NO/SE/FI 2 digits, DK 4 (1081–1085) */
                            countyCode: string;
                            countyName: string;
                            municipalities: {
                                /** @description NO/SE 4 digits, FI/DK 3 */
                                code: string;
                                name: string;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postCompaniesEnrich: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of orgNumbers or pairs */
        requestBody: {
            content: {
                "application/json": {
                    /** @description 9-digit Norwegian numbers */
                    orgNumbers?: string[];
                    /** @description Each country in its own format: NO 9 digits, FI NNNNNNN-N, SE 10 digits */
                    pairs?: {
                        orgNumber: string;
                        /**
                         * @default NO
                         * @enum {string}
                         */
                        country?: "NO" | "FI" | "SE" | "DK";
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "1042",
                     *           "orgNumber": "923609016",
                     *           "country": "NO",
                     *           "name": "EQUINOR ASA",
                     *           "orgFormCode": "ASA",
                     *           "orgFormDescription": "Allmennaksjeselskap",
                     *           "naceCode1": "06.100",
                     *           "naceDescription1": "Utvinning av råolje",
                     *           "naceCode2": null,
                     *           "naceDescription2": null,
                     *           "naceCode3": null,
                     *           "naceDescription3": null,
                     *           "sectorCode": "1120",
                     *           "employeeCount": 21408,
                     *           "hasRegisteredEmployees": true,
                     *           "businessAddressStreet": "Forusbeen 50",
                     *           "businessAddressPostalCode": "4035",
                     *           "businessAddressCity": "STAVANGER",
                     *           "businessAddressMunicipality": "STAVANGER",
                     *           "businessAddressMuniNo": "1103",
                     *           "businessAddressCountryCode": "NO",
                     *           "postalAddressStreet": "Postboks 8500 Forus",
                     *           "postalAddressPostalCode": "4035",
                     *           "postalAddressCity": "STAVANGER",
                     *           "postalAddressMunicipality": "STAVANGER",
                     *           "postalAddressMuniNo": "1103",
                     *           "postalAddressCountryCode": "NO",
                     *           "website": "https://www.equinor.com",
                     *           "phone": "51 99 00 00",
                     *           "parentOrgNumber": null,
                     *           "isInGroup": true,
                     *           "foundingDate": "1972-09-18",
                     *           "registrationDate": "1995-03-12",
                     *           "registeredInVat": true,
                     *           "registeredInBiz": true,
                     *           "isBankrupt": false,
                     *           "isBeingDissolved": false,
                     *           "isInForcedDissolution": false,
                     *           "isDeleted": false,
                     *           "deletedDate": null,
                     *           "status": "active",
                     *           "description": "Utvinning av olje og gass, fornybar energi og lavkarbonløsninger.",
                     *           "lastSubmittedAccountsYear": "2024",
                     *           "primaryDomain": "equinor.com",
                     *           "enrichedDomains": [
                     *             "equinor.com"
                     *           ],
                     *           "linkedinHandle": "equinor",
                     *           "facebookHandle": "Equinor",
                     *           "instagramHandle": "equinor",
                     *           "twitterHandle": "Equinor",
                     *           "technologies": [
                     *             {
                     *               "name": "Adobe Experience Manager",
                     *               "category": "CMS",
                     *               "confidence": 0.9
                     *             }
                     *           ],
                     *           "hasAnyAdPixel": true,
                     *           "marketingProtected": null,
                     *           "majorityOwner": {
                     *             "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
                     *             "orgNumber": "912660680",
                     *             "ownershipPct": 67,
                     *             "year": 2024
                     *           },
                     *           "largestShareholder": {
                     *             "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
                     *             "orgNumber": "912660680",
                     *             "ownershipPct": 67,
                     *             "year": 2024
                     *           },
                     *           "createdAt": "2026-01-05T03:12:44.000Z",
                     *           "updatedAt": "2026-04-20T12:34:56.000Z",
                     *           "sizeClass": "large",
                     *           "businessAddressMuni": "Stavanger",
                     *           "signals": {
                     *             "financialHealthScore": 84,
                     *             "revenueCagr": 0.1217,
                     *             "ownershipConcentrationPct": 67,
                     *             "isForeignOwned": false,
                     *             "isInDebtNegotiation": false,
                     *             "explanation": {
                     *               "financialHealthScore": {
                     *                 "rule": "Sum of points from the latest two filed years: equity ratio 30, profit margin 25, revenue trend 20, positive equity 15, a recent filing 10",
                     *                 "inputs": {
                     *                   "equityRatio": 0.3765,
                     *                   "profitMargin": 0.1122,
                     *                   "revenueTrend": -0.084,
                     *                   "equity": 41090000000,
                     *                   "cap": null
                     *                 },
                     *                 "year": 2024
                     *               },
                     *               "revenueCagr": {
                     *                 "rule": "(latest revenue / oldest revenue)^(1 / years between) - 1",
                     *                 "inputs": {
                     *                   "oldestYear": 2020,
                     *                   "oldestRevenue": 45818000000,
                     *                   "latestYear": 2024,
                     *                   "latestRevenue": 72543000000
                     *                 },
                     *                 "year": 2024
                     *               },
                     *               "ownershipConcentrationPct": {
                     *                 "rule": "The largest owner's share (%) in the latest register year, all share classes",
                     *                 "inputs": {
                     *                   "largestOwnerPct": 67
                     *                 },
                     *                 "year": 2024
                     *               },
                     *               "isForeignOwned": {
                     *                 "rule": "Owners registered outside the company’s country hold more than 50 %",
                     *                 "inputs": {
                     *                   "foreignOwnedPct": 4.2
                     *                 },
                     *                 "year": 2024
                     *               },
                     *               "isInDebtNegotiation": {
                     *                 "rule": "The registry shows reconstruction or debt negotiation",
                     *                 "inputs": {
                     *                   "isInDebtNegotiation": false
                     *                 },
                     *                 "year": null
                     *               }
                     *             }
                     *           },
                     *           "financials": [
                     *             {
                     *               "orgNumber": "923609016",
                     *               "regnskapstype": "SELSKAP",
                     *               "periodFrom": "2024-01-01",
                     *               "periodTo": "2024-12-31",
                     *               "currency": "USD",
                     *               "revenue": 72543000000,
                     *               "operatingProfit": 13001000000,
                     *               "operatingResult": 13001000000,
                     *               "netResult": 8141000000,
                     *               "equity": 41090000000,
                     *               "totalAssets": 109150000000,
                     *               "totalLiabilities": 68060000000,
                     *               "averageEmployees": null,
                     *               "profitMargin": 11.22,
                     *               "operatingMargin": 17.92,
                     *               "returnOnEquity": 19.81,
                     *               "equityRatio": 37.65,
                     *               "revenueGrowthYoY": -8.4
                     *             }
                     *           ],
                     *           "roles": [
                     *             {
                     *               "roleTypeCode": "DAGL",
                     *               "roleTypeDescription": "Daglig leder/ adm.direktør",
                     *               "groupCode": "DAGL",
                     *               "groupDescription": "Daglig leder/ adm.direktør",
                     *               "personFirstName": "Kari",
                     *               "personMiddleName": null,
                     *               "personLastName": "Nordmann",
                     *               "personBirthYear": 1971,
                     *               "entityOrgNumber": null,
                     *               "entityName": null,
                     *               "electedBy": null,
                     *               "ownershipPercent": null
                     *             }
                     *           ],
                     *           "subUnits": [
                     *             {
                     *               "orgNumber": "973152351",
                     *               "name": "EQUINOR ASA AVD FORUS",
                     *               "orgFormCode": "BEDR",
                     *               "naceCode1": "06.100",
                     *               "naceDescription1": "Utvinning av råolje",
                     *               "employeeCount": 1800,
                     *               "addressStreet": "Forusbeen 50",
                     *               "addressPostalCode": "4035",
                     *               "addressCity": "STAVANGER",
                     *               "addressMunicipality": "STAVANGER",
                     *               "addressMuniNo": "1103",
                     *               "addressLat": 58.8916,
                     *               "addressLng": 5.7211,
                     *               "startDate": "1995-03-01",
                     *               "closureDate": null,
                     *               "isDeleted": false
                     *             }
                     *           ],
                     *           "licenses": [],
                     *           "_sources": {
                     *             "attribution": [
                     *               "Brønnøysundregistrene",
                     *               "Regnskapsregisteret"
                     *             ],
                     *             "fields": {
                     *               "companyCore": "Brønnøysundregistrene",
                     *               "roles": "Brønnøysundregistrene",
                     *               "financials": "Regnskapsregisteret",
                     *               "financialRatios": {
                     *                 "source": "Regnskapsregisteret",
                     *                 "computed": true
                     *               },
                     *               "industryLabel": "SSB Klass",
                     *               "orgFormLabel": "SSB Klass",
                     *               "countryLabel": "SSB Klass",
                     *               "signals": {
                     *                 "source": "Regnskapsregisteret",
                     *                 "computed": true
                     *               }
                     *             }
                     *           }
                     *         }
                     *       ],
                     *       "notFound": [
                     *         "111111111"
                     *       ],
                     *       "unavailable": []
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["CompanyRecord"][];
                        /** @description string[] for orgNumbers, {orgNumber, country}[] for pairs */
                        notFound: string[] | {
                            orgNumber: string;
                            /** @enum {string} */
                            country: "NO" | "FI" | "SE" | "DK";
                        }[];
                        unavailable: string[] | {
                            orgNumber: string;
                            /** @enum {string} */
                            country: "NO" | "FI" | "SE" | "DK";
                        }[];
                        /** @description Why each unavailable number is (by org number; only when `unavailable` is not empty): `upstream_error`, `upstream_circuit_open` and `upstream_rate_limited` mean retry later; `live_fetch_budget` means the key spent its daily budget of live fetches. */
                        unavailableReasons?: {
                            [key: string]: "upstream_error" | "upstream_circuit_open" | "upstream_rate_limited" | "live_fetch_budget";
                        };
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postCompaniesMatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "queries": [
                 *         {
                 *           "name": "Fjord Bygg",
                 *           "city": "Bergen",
                 *           "country": "NO"
                 *         },
                 *         {
                 *           "name": "Nordlys Eiendom AS"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description 1–100 names; results come back in the same order */
                    queries: {
                        /** @description Company name as you have it (legal form, abbreviations and word order may differ). A query gives a name, a domain or an email */
                        name?: string;
                        /** @description Web domain, hostname or URL instead of (or beside) the name: reduced to its registrable domain over the Public Suffix List ("https://www.example.no/x", "shop.example.no" -> example.no) and matched against the registry homepage and the domains the enrichment pipeline confirmed */
                        domain?: string;
                        /** @description E-mail address (e.g. a sender's) instead of a domain: its domain part is matched as `domain` is. Free-mail and ISP domains (gmail.com, outlook.com, online.no, live.se, …) match nothing, with `reason`. `domain` wins when both are given */
                        email?: string;
                        /**
                         * @description Only candidates of this country
                         * @enum {string}
                         */
                        country?: "NO" | "SE" | "FI" | "DK";
                        /** @description Municipality name */
                        municipality?: string;
                        /** @description City or post town */
                        city?: string;
                        /** @description Postal code */
                        postalCode?: string;
                        /** @description Street address (echoed; place and postcode are compared) */
                        address?: string;
                        /** @description Website or domain, e.g. "https://www.example.no" or "example.no" */
                        website?: string;
                        /** @description Organisation form code, e.g. AS, ENK, AB, 16 */
                        orgForm?: string;
                        /** @description Score deleted, dissolved and bankrupt companies as live ones (default false: they score 0.15 less) */
                        includeInactive?: boolean;
                    }[];
                    /** @description Score the top candidate needs to be the match (default 0.8); it must also lead the second by 0.05 */
                    threshold?: number;
                    /** @description Candidates per query (default 5) */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "threshold": 0.8,
                     *       "results": [
                     *         {
                     *           "query": {
                     *             "name": "Fjord Bygg",
                     *             "city": "Bergen",
                     *             "country": "NO"
                     *           },
                     *           "status": "done",
                     *           "match": {
                     *             "orgNumber": "923609016",
                     *             "country": "NO",
                     *             "name": "FJORD BYGG AS",
                     *             "score": 0.95,
                     *             "features": {
                     *               "nameSimilarity": 1,
                     *               "matchedName": "FJORD BYGG AS",
                     *               "formerName": false,
                     *               "place": "match",
                     *               "postalCode": "unknown",
                     *               "domain": "unknown",
                     *               "orgForm": "unknown",
                     *               "status": "active",
                     *               "adjustments": [
                     *                 {
                     *                   "feature": "place",
                     *                   "delta": 0.05
                     *                 }
                     *               ]
                     *             }
                     *           },
                     *           "candidates": [
                     *             {
                     *               "orgNumber": "923609016",
                     *               "country": "NO",
                     *               "name": "FJORD BYGG AS",
                     *               "score": 0.95,
                     *               "features": {
                     *                 "nameSimilarity": 1,
                     *                 "matchedName": "FJORD BYGG AS",
                     *                 "formerName": false,
                     *                 "place": "match",
                     *                 "postalCode": "unknown",
                     *                 "domain": "unknown",
                     *                 "orgForm": "unknown",
                     *                 "status": "active",
                     *                 "adjustments": [
                     *                   {
                     *                     "feature": "place",
                     *                     "delta": 0.05
                     *                   }
                     *                 ]
                     *               }
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "query": {
                     *             "name": "Общество с ограниченной ответственностью Северный Торговый Дом"
                     *           },
                     *           "status": "not_attempted",
                     *           "reason": {
                     *             "code": "work_budget_exhausted",
                     *             "message": "the work budget of this call was used up before this name was looked up; send it again, in a call with fewer names"
                     *           },
                     *           "match": null,
                     *           "candidates": []
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        threshold: number;
                        results: {
                            query: {
                                /** @description Company name as you have it (legal form, abbreviations and word order may differ). A query gives a name, a domain or an email */
                                name?: string;
                                /** @description Web domain, hostname or URL instead of (or beside) the name: reduced to its registrable domain over the Public Suffix List ("https://www.example.no/x", "shop.example.no" -> example.no) and matched against the registry homepage and the domains the enrichment pipeline confirmed */
                                domain?: string;
                                /** @description E-mail address (e.g. a sender's) instead of a domain: its domain part is matched as `domain` is. Free-mail and ISP domains (gmail.com, outlook.com, online.no, live.se, …) match nothing, with `reason`. `domain` wins when both are given */
                                email?: string;
                                /**
                                 * @description Only candidates of this country
                                 * @enum {string}
                                 */
                                country?: "NO" | "SE" | "FI" | "DK";
                                /** @description Municipality name */
                                municipality?: string;
                                /** @description City or post town */
                                city?: string;
                                /** @description Postal code */
                                postalCode?: string;
                                /** @description Street address (echoed; place and postcode are compared) */
                                address?: string;
                                /** @description Website or domain, e.g. "https://www.example.no" or "example.no" */
                                website?: string;
                                /** @description Organisation form code, e.g. AS, ENK, AB, 16 */
                                orgForm?: string;
                                /** @description Score deleted, dissolved and bankrupt companies as live ones (default false: they score 0.15 less) */
                                includeInactive?: boolean;
                            };
                            /**
                             * @description done: the query was looked up and its candidates ranked. not_attempted: the work bound of the call was reached before this query was looked up (no candidates; `reason` says which bound): send it again, in a call with fewer names. The call still answers 200 with the results of the queries that were done
                             * @enum {string}
                             */
                            status: "done" | "not_attempted";
                            /** @description The registrable domain the query was matched by (from domain, email or website) */
                            domain?: string;
                            /** @description Why a query matches nothing by design, or was not attempted: free_mail_domain = the domain is a free-mail or ISP domain, shared by unrelated people, so it identifies no company (no candidates are looked up by it); work_budget_exhausted = the store time (5 s) or the time (10 s) one call may spend on lookups was used up before this query (status not_attempted); lookup_timed_out = the lookup statement holding this query ran over its statement time (status not_attempted) */
                            reason?: {
                                /** @enum {string} */
                                code: "free_mail_domain" | "work_budget_exhausted" | "lookup_timed_out";
                                message: string;
                            };
                            /** @description The top candidate when its score clears the threshold with the margin, else null */
                            match: {
                                orgNumber: string;
                                country: string;
                                name: string;
                                score: number;
                                features: {
                                    /** @description Word-aligned name similarity after legal-form and abbreviation normalisation */
                                    nameSimilarity: number;
                                    /** @description The registry name that matched (current or former) */
                                    matchedName: string;
                                    /** @description The name matched is a former name */
                                    formerName: boolean;
                                    /**
                                     * @description City or municipality against the business and postal addresses
                                     * @enum {string}
                                     */
                                    place: "match" | "mismatch" | "unknown";
                                    /**
                                     * @description Postal code against the business and postal addresses
                                     * @enum {string}
                                     */
                                    postalCode: "match" | "mismatch" | "unknown";
                                    /**
                                     * @description Website domain against the registered website and detected domains
                                     * @enum {string}
                                     */
                                    domain: "match" | "mismatch" | "unknown";
                                    /**
                                     * @description Organisation form code
                                     * @enum {string}
                                     */
                                    orgForm: "match" | "mismatch" | "unknown";
                                    /** @description active, deleted, bankrupt, dissolving, or the registry status */
                                    status: string;
                                    /** @description Score changes beside the name (0.9 × nameSimilarity). In a query by domain or e-mail without a name they are the whole score: homepage +0.55, enrichedDomain +0.35, nameLikeness 0.3 × domainEvidence.nameLikeness, then place, postalCode, orgForm and status */
                                    adjustments: {
                                        feature: string;
                                        delta: number;
                                    }[];
                                    /** @description Present when the query gives a domain, an e-mail address, or a website */
                                    domainEvidence?: {
                                        /** @description The registrable domain the query was matched by */
                                        domain: string;
                                        /** @description The registry's homepage lies in the domain */
                                        homepage: boolean;
                                        /** @description The enrichment pipeline confirmed the domain (primaryDomain or enrichedDomains) */
                                        enrichedDomain: boolean;
                                        /** @description How much the name looks like the domain: 1 when the domain's label is one the name gives (its words joined, hyphenated, '&' as 'og', or its distinctive first word); 0.9 when it is the initials of a name of two words or more; else the bigram Dice similarity of the label and the name's words joined (hyphens dropped) */
                                        nameLikeness: number;
                                    };
                                };
                            } | null;
                            /** @description Best first: by score, highest first, equal scores by orgNumber then country. `match`, when set, is the first. Deleted, dissolved and bankrupt companies score 0.15 less unless the query sets includeInactive */
                            candidates: {
                                orgNumber: string;
                                country: string;
                                name: string;
                                score: number;
                                features: {
                                    /** @description Word-aligned name similarity after legal-form and abbreviation normalisation */
                                    nameSimilarity: number;
                                    /** @description The registry name that matched (current or former) */
                                    matchedName: string;
                                    /** @description The name matched is a former name */
                                    formerName: boolean;
                                    /**
                                     * @description City or municipality against the business and postal addresses
                                     * @enum {string}
                                     */
                                    place: "match" | "mismatch" | "unknown";
                                    /**
                                     * @description Postal code against the business and postal addresses
                                     * @enum {string}
                                     */
                                    postalCode: "match" | "mismatch" | "unknown";
                                    /**
                                     * @description Website domain against the registered website and detected domains
                                     * @enum {string}
                                     */
                                    domain: "match" | "mismatch" | "unknown";
                                    /**
                                     * @description Organisation form code
                                     * @enum {string}
                                     */
                                    orgForm: "match" | "mismatch" | "unknown";
                                    /** @description active, deleted, bankrupt, dissolving, or the registry status */
                                    status: string;
                                    /** @description Score changes beside the name (0.9 × nameSimilarity). In a query by domain or e-mail without a name they are the whole score: homepage +0.55, enrichedDomain +0.35, nameLikeness 0.3 × domainEvidence.nameLikeness, then place, postalCode, orgForm and status */
                                    adjustments: {
                                        feature: string;
                                        delta: number;
                                    }[];
                                    /** @description Present when the query gives a domain, an e-mail address, or a website */
                                    domainEvidence?: {
                                        /** @description The registrable domain the query was matched by */
                                        domain: string;
                                        /** @description The registry's homepage lies in the domain */
                                        homepage: boolean;
                                        /** @description The enrichment pipeline confirmed the domain (primaryDomain or enrichedDomains) */
                                        enrichedDomain: boolean;
                                        /** @description How much the name looks like the domain: 1 when the domain's label is one the name gives (its words joined, hyphenated, '&' as 'og', or its distinctive first word); 0.9 when it is the initials of a name of two words or more; else the bigram Dice similarity of the label and the name's words joined (hyphens dropped) */
                                        nameLikeness: number;
                                    };
                                };
                            }[];
                        }[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getKeysReconcileUrl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "serviceUrl": "https://api.example.com/api/reconcile/rcn_AbCd123400000000000000000000000000000000"
                     *     }
                     */
                    "application/json": {
                        /** @description Add it in OpenRefine: Reconcile → Start reconciling → Add standard service. It carries a secret token. */
                        serviceUrl: string;
                    };
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCompaniesByOrgNumber: {
        parameters: {
            query?: {
                country?: "NO" | "FI" | "SE" | "DK";
                include?: "context";
            };
            header?: never;
            path: {
                /**
                 * @description NO: 9 digits; FI: NNNNNNN-N; SE: 10 digits; DK: 8-digit CVR number
                 * @example 923609016
                 */
                orgNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyLookup"];
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `company_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Bad gateway: `upstream_unavailable`. See /errors */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCompanies: {
        parameters: {
            query?: {
                /** @description Scope to one registry */
                country?: "NO" | "FI" | "SE" | "DK";
                /**
                 * @description Case-insensitive name match: substring from 3 characters, name prefix for 1–2 characters
                 * @example equinor
                 */
                q?: string;
                /**
                 * @description NACE code or prefix, e.g. 56, 56.1, 56.101
                 * @example 06.1
                 */
                nace?: string;
                /** @description Legal form code, e.g. AS, ASA, ENK, AB, 16 */
                orgForm?: string;
                /** @description 4-digit municipality number (NO) */
                municipality?: string;
                /** @description 2-digit county number (NO) */
                county?: string;
                minEmployees?: number;
                maxEmployees?: number;
                /** @description On the latest financial, in the currency of the company's country: NOK (NO), EUR (FI), SEK (SE), DKK (DK); no conversion, so combine it with country */
                minRevenue?: number;
                /** @description On the latest financial, in the currency of the company's country: NOK (NO), EUR (FI), SEK (SE), DKK (DK); no conversion, so combine it with country */
                maxRevenue?: number;
                isBankrupt?: boolean;
                /** @description false: leave out companies that declined advertising (DK reklamebeskyttet, SE reklamspärr); companies of countries without such a register (NO, FI) stay in. true: only those that declined. */
                marketingProtected?: boolean;
                isInGroup?: boolean;
                /** @description true: parentOrgNumber is set */
                hasParent?: boolean;
                /** @description Exact technology name, e.g. WordPress, Shopify */
                hasTechnology?: string;
                hasAnyAdPixel?: boolean;
                /**
                 * @description Company by web domain: a domain, hostname or URL, reduced to its registrable domain over the Public Suffix List ("https://www.example.no/kontakt" and "shop.example.no" both mean example.no). Matches companies whose registry homepage, primaryDomain or enrichedDomains lie in that domain. Not a domain: 400. A free-mail or ISP domain (gmail.com, online.no, …) identifies no company and returns an empty page.
                 * @example example.no
                 */
                domain?: string;
                /** @description Also return deleted/deregistered companies (default false) */
                includeDeleted?: boolean;
                /** @description Append aggregate context per row */
                include?: "context";
                sort?: "name" | "employeeCount" | "foundingDate" | "updatedAt";
                order?: "asc" | "desc";
                /** @description 1–100; values above your tier’s maxPageSize are capped */
                limit?: number;
                /** @description nextCursor of the previous page (same query) */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "1042",
                     *           "orgNumber": "923609016",
                     *           "country": "NO",
                     *           "name": "EQUINOR ASA",
                     *           "orgFormCode": "ASA",
                     *           "orgFormDescription": "Allmennaksjeselskap",
                     *           "naceCode1": "06.100",
                     *           "naceDescription1": "Utvinning av råolje",
                     *           "naceCode2": null,
                     *           "naceDescription2": null,
                     *           "naceCode3": null,
                     *           "naceDescription3": null,
                     *           "sectorCode": "1120",
                     *           "employeeCount": 21408,
                     *           "hasRegisteredEmployees": true,
                     *           "businessAddressStreet": "Forusbeen 50",
                     *           "businessAddressPostalCode": "4035",
                     *           "businessAddressCity": "STAVANGER",
                     *           "businessAddressMunicipality": "STAVANGER",
                     *           "businessAddressMuniNo": "1103",
                     *           "businessAddressCountryCode": "NO",
                     *           "postalAddressStreet": "Postboks 8500 Forus",
                     *           "postalAddressPostalCode": "4035",
                     *           "postalAddressCity": "STAVANGER",
                     *           "postalAddressMunicipality": "STAVANGER",
                     *           "postalAddressMuniNo": "1103",
                     *           "postalAddressCountryCode": "NO",
                     *           "website": "https://www.equinor.com",
                     *           "phone": "51 99 00 00",
                     *           "parentOrgNumber": null,
                     *           "isInGroup": true,
                     *           "foundingDate": "1972-09-18",
                     *           "registrationDate": "1995-03-12",
                     *           "registeredInVat": true,
                     *           "registeredInBiz": true,
                     *           "isBankrupt": false,
                     *           "isBeingDissolved": false,
                     *           "isInForcedDissolution": false,
                     *           "isDeleted": false,
                     *           "deletedDate": null,
                     *           "status": "active",
                     *           "description": "Utvinning av olje og gass, fornybar energi og lavkarbonløsninger.",
                     *           "lastSubmittedAccountsYear": "2024",
                     *           "primaryDomain": "equinor.com",
                     *           "enrichedDomains": [
                     *             "equinor.com"
                     *           ],
                     *           "linkedinHandle": "equinor",
                     *           "facebookHandle": "Equinor",
                     *           "instagramHandle": "equinor",
                     *           "twitterHandle": "Equinor",
                     *           "technologies": [
                     *             {
                     *               "name": "Adobe Experience Manager",
                     *               "category": "CMS",
                     *               "confidence": 0.9
                     *             }
                     *           ],
                     *           "hasAnyAdPixel": true,
                     *           "marketingProtected": null,
                     *           "majorityOwner": {
                     *             "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
                     *             "orgNumber": "912660680",
                     *             "ownershipPct": 67,
                     *             "year": 2024
                     *           },
                     *           "largestShareholder": {
                     *             "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
                     *             "orgNumber": "912660680",
                     *             "ownershipPct": 67,
                     *             "year": 2024
                     *           },
                     *           "createdAt": "2026-01-05T03:12:44.000Z",
                     *           "updatedAt": "2026-04-20T12:34:56.000Z",
                     *           "naceName": "Utvinning av råolje",
                     *           "orgFormName": "Allmennaksjeselskap",
                     *           "countryName": "Norge",
                     *           "municipalityName": "Stavanger",
                     *           "countyCode": "11",
                     *           "countyName": "Rogaland",
                     *           "financials": [
                     *             {
                     *               "orgNumber": "923609016",
                     *               "regnskapstype": "SELSKAP",
                     *               "periodFrom": "2024-01-01",
                     *               "periodTo": "2024-12-31",
                     *               "currency": "USD",
                     *               "revenue": 72543000000,
                     *               "operatingProfit": 13001000000,
                     *               "operatingResult": 13001000000,
                     *               "netResult": 8141000000,
                     *               "equity": 41090000000,
                     *               "totalAssets": 109150000000,
                     *               "totalLiabilities": 68060000000,
                     *               "averageEmployees": null,
                     *               "profitMargin": 11.22,
                     *               "operatingMargin": 17.92,
                     *               "returnOnEquity": 19.81,
                     *               "equityRatio": 37.65,
                     *               "revenueGrowthYoY": -8.4
                     *             }
                     *           ],
                     *           "roles": [
                     *             {
                     *               "roleTypeCode": "DAGL",
                     *               "roleTypeDescription": "Daglig leder/ adm.direktør",
                     *               "groupCode": "DAGL",
                     *               "groupDescription": "Daglig leder/ adm.direktør",
                     *               "personFirstName": "Kari",
                     *               "personMiddleName": null,
                     *               "personLastName": "Nordmann",
                     *               "personBirthYear": 1971,
                     *               "entityOrgNumber": null,
                     *               "entityName": null,
                     *               "electedBy": null,
                     *               "ownershipPercent": null
                     *             }
                     *           ],
                     *           "_sources": {
                     *             "attribution": [
                     *               "Brønnøysundregistrene",
                     *               "Regnskapsregisteret",
                     *               "SSB Klass"
                     *             ],
                     *             "fields": {
                     *               "companyCore": "Brønnøysundregistrene",
                     *               "roles": "Brønnøysundregistrene",
                     *               "financials": "Regnskapsregisteret",
                     *               "financialRatios": {
                     *                 "source": "Regnskapsregisteret",
                     *                 "computed": true
                     *               },
                     *               "industryLabel": "SSB Klass",
                     *               "orgFormLabel": "SSB Klass",
                     *               "countryLabel": "SSB Klass"
                     *             }
                     *           },
                     *           "sizeClass": "large",
                     *           "businessAddressMuni": "Stavanger"
                     *         }
                     *       ],
                     *       "nextCursor": "eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8",
                     *       "hasMore": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["CompanyRow"][];
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `search_filter_required`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`, `cursor_depth_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getUpdates: {
        parameters: {
            query: {
                /**
                 * @description ISO 8601 date or timestamp (UTC when no offset)
                 * @example 2026-04-20T12:34:56Z
                 */
                since: string;
                /** @description 1–100; values above your tier’s maxPageSize are capped */
                limit?: number;
                /** @description nextCursor of the previous page (same query) */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "1042",
                     *           "orgNumber": "923609016",
                     *           "country": "NO",
                     *           "name": "EQUINOR ASA",
                     *           "orgFormCode": "ASA",
                     *           "orgFormDescription": "Allmennaksjeselskap",
                     *           "naceCode1": "06.100",
                     *           "naceDescription1": "Utvinning av råolje",
                     *           "naceCode2": null,
                     *           "naceDescription2": null,
                     *           "naceCode3": null,
                     *           "naceDescription3": null,
                     *           "sectorCode": "1120",
                     *           "employeeCount": 21408,
                     *           "hasRegisteredEmployees": true,
                     *           "businessAddressStreet": "Forusbeen 50",
                     *           "businessAddressPostalCode": "4035",
                     *           "businessAddressCity": "STAVANGER",
                     *           "businessAddressMunicipality": "STAVANGER",
                     *           "businessAddressMuniNo": "1103",
                     *           "businessAddressCountryCode": "NO",
                     *           "postalAddressStreet": "Postboks 8500 Forus",
                     *           "postalAddressPostalCode": "4035",
                     *           "postalAddressCity": "STAVANGER",
                     *           "postalAddressMunicipality": "STAVANGER",
                     *           "postalAddressMuniNo": "1103",
                     *           "postalAddressCountryCode": "NO",
                     *           "website": "https://www.equinor.com",
                     *           "phone": "51 99 00 00",
                     *           "parentOrgNumber": null,
                     *           "isInGroup": true,
                     *           "foundingDate": "1972-09-18",
                     *           "registrationDate": "1995-03-12",
                     *           "registeredInVat": true,
                     *           "registeredInBiz": true,
                     *           "isBankrupt": false,
                     *           "isBeingDissolved": false,
                     *           "isInForcedDissolution": false,
                     *           "isDeleted": false,
                     *           "deletedDate": null,
                     *           "status": "active",
                     *           "description": "Utvinning av olje og gass, fornybar energi og lavkarbonløsninger.",
                     *           "lastSubmittedAccountsYear": "2024",
                     *           "primaryDomain": "equinor.com",
                     *           "enrichedDomains": [
                     *             "equinor.com"
                     *           ],
                     *           "linkedinHandle": "equinor",
                     *           "facebookHandle": "Equinor",
                     *           "instagramHandle": "equinor",
                     *           "twitterHandle": "Equinor",
                     *           "technologies": [
                     *             {
                     *               "name": "Adobe Experience Manager",
                     *               "category": "CMS",
                     *               "confidence": 0.9
                     *             }
                     *           ],
                     *           "hasAnyAdPixel": true,
                     *           "marketingProtected": null,
                     *           "majorityOwner": {
                     *             "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
                     *             "orgNumber": "912660680",
                     *             "ownershipPct": 67,
                     *             "year": 2024
                     *           },
                     *           "largestShareholder": {
                     *             "name": "NÆRINGS- OG FISKERIDEPARTEMENTET",
                     *             "orgNumber": "912660680",
                     *             "ownershipPct": 67,
                     *             "year": 2024
                     *           },
                     *           "createdAt": "2026-01-05T03:12:44.000Z",
                     *           "updatedAt": "2026-04-20T12:34:56.000Z",
                     *           "naceName": "Utvinning av råolje",
                     *           "orgFormName": "Allmennaksjeselskap",
                     *           "countryName": "Norge",
                     *           "municipalityName": "Stavanger",
                     *           "countyCode": "11",
                     *           "countyName": "Rogaland",
                     *           "financials": [
                     *             {
                     *               "orgNumber": "923609016",
                     *               "regnskapstype": "SELSKAP",
                     *               "periodFrom": "2024-01-01",
                     *               "periodTo": "2024-12-31",
                     *               "currency": "USD",
                     *               "revenue": 72543000000,
                     *               "operatingProfit": 13001000000,
                     *               "operatingResult": 13001000000,
                     *               "netResult": 8141000000,
                     *               "equity": 41090000000,
                     *               "totalAssets": 109150000000,
                     *               "totalLiabilities": 68060000000,
                     *               "averageEmployees": null,
                     *               "profitMargin": 11.22,
                     *               "operatingMargin": 17.92,
                     *               "returnOnEquity": 19.81,
                     *               "equityRatio": 37.65,
                     *               "revenueGrowthYoY": -8.4
                     *             }
                     *           ],
                     *           "roles": [
                     *             {
                     *               "roleTypeCode": "DAGL",
                     *               "roleTypeDescription": "Daglig leder/ adm.direktør",
                     *               "groupCode": "DAGL",
                     *               "groupDescription": "Daglig leder/ adm.direktør",
                     *               "personFirstName": "Kari",
                     *               "personMiddleName": null,
                     *               "personLastName": "Nordmann",
                     *               "personBirthYear": 1971,
                     *               "entityOrgNumber": null,
                     *               "entityName": null,
                     *               "electedBy": null,
                     *               "ownershipPercent": null
                     *             }
                     *           ],
                     *           "_sources": {
                     *             "attribution": [
                     *               "Brønnøysundregistrene",
                     *               "Regnskapsregisteret",
                     *               "SSB Klass"
                     *             ],
                     *             "fields": {
                     *               "companyCore": "Brønnøysundregistrene",
                     *               "roles": "Brønnøysundregistrene",
                     *               "financials": "Regnskapsregisteret",
                     *               "financialRatios": {
                     *                 "source": "Regnskapsregisteret",
                     *                 "computed": true
                     *               },
                     *               "industryLabel": "SSB Klass",
                     *               "orgFormLabel": "SSB Klass",
                     *               "countryLabel": "SSB Klass"
                     *             }
                     *           },
                     *           "sizeClass": "large",
                     *           "businessAddressMuni": "Stavanger"
                     *         }
                     *       ],
                     *       "nextCursor": "eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8",
                     *       "hasMore": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["CompanyRow"][];
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `cursor_depth_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDestinations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0b9c7f4e-8d1a-4f6b-9a55-2e3c4d5f6a7b",
                     *           "name": "crm-webhook",
                     *           "type": "webhook",
                     *           "isActive": true,
                     *           "createdAt": "2026-04-20T12:34:56.000Z",
                     *           "updatedAt": "2026-04-20T12:34:56.000Z",
                     *           "config": {
                     *             "url": "https://hooks.acme.example/ncd",
                     *             "method": "POST",
                     *             "headers": {
                     *               "Authorization": "***"
                     *             },
                     *             "signing": true
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            id: string;
                            name: string;
                            type: string;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description Absent only when the stored config cannot be decrypted (see warnings). Tokens and secrets are never served. */
                            config?: {
                                url: string;
                                method: string;
                                /** @description Header names; every value is masked as "***" */
                                headers: {
                                    [key: string]: string;
                                };
                                /** @description Whether a signing secret is set (the secret is never served) */
                                signing: boolean;
                            } | {
                                /**
                                 * @description How the destination is connected
                                 * @enum {string}
                                 */
                                auth: "private-app" | "oauth";
                                portalId?: string;
                                /** @description The unique company property the upsert is keyed by */
                                orgNumberProperty: string;
                                fieldMappings: {
                                    [key: string]: {
                                        property: string;
                                        /**
                                         * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                         * @enum {string}
                                         */
                                        rule: "overwrite" | "fillIfEmpty";
                                    };
                                };
                                allowMarketingProtected: boolean;
                            } | {
                                workspaceSlug?: string;
                                /** @description The unique company attribute records are asserted by */
                                orgNumberAttribute: string;
                                fieldMappings: {
                                    [key: string]: {
                                        property: string;
                                        /**
                                         * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                         * @enum {string}
                                         */
                                        rule: "overwrite" | "fillIfEmpty";
                                    };
                                };
                                allowMarketingProtected: boolean;
                                /** @description Whether a webhook secret is set (enrich-on-write) */
                                webhookSigning: boolean;
                            };
                            /** @description E.g. a plain-http URL */
                            warnings?: string[];
                        }[];
                    };
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`, `destination_unreadable`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postDestinations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "crm-webhook",
                 *       "type": "webhook",
                 *       "config": {
                 *         "url": "https://hooks.acme.example/ncd",
                 *         "method": "POST",
                 *         "headers": {
                 *           "Authorization": "Bearer token-for-the-receiver"
                 *         },
                 *         "signingSecret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                 *       },
                 *       "isActive": true
                 *     }
                 */
                "application/json": {
                    /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                    name: string;
                    /**
                     * @description `webhook` (one request per push), `hubspot` (CRM v3 batch upsert by organisation number) or `attio` (record assert by organisation number)
                     * @enum {string}
                     */
                    type: "webhook" | "hubspot" | "attio";
                    config: {
                        /** @description webhook (required): https expected; plain http is accepted with a warning. The host must resolve only to public addresses (unless ALLOW_PRIVATE_DESTINATIONS=true). */
                        url?: string;
                        /**
                         * @description Default POST
                         * @enum {string}
                         */
                        method?: "POST" | "PUT" | "PATCH";
                        /** @description Extra request headers (at most 20; values at most 1 KB, no CR/LF). Host, Content-Length, Transfer-Encoding, Connection, Content-Type and the webhook-* signing headers cannot be set. Values are stored encrypted and never served back. */
                        headers?: {
                            [key: string]: string;
                        };
                        /** @description webhook, optional, write-only. When set, requests carry Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). `whsec_<base64>` uses the decoded bytes as the key; otherwise 16-256 printable ASCII characters. */
                        signingSecret?: string;
                        /** @description hubspot, write-only: a private app access token (scopes crm.objects.companies.read/write, crm.schemas.companies.read/write). Not needed for a destination made by the OAuth install. */
                        accessToken?: string;
                        /** @description hubspot: the account (hub) id, so its webhooks reach this destination */
                        portalId?: string;
                        /** @description attio (required), write-only: an Attio API token */
                        apiKey?: string;
                        /** @description attio: the workspace, for reference */
                        workspaceSlug?: string;
                        /** @description attio, write-only: the secret of the Attio webhook that calls POST /api/integrations/attio/webhook (enrich-on-write) */
                        webhookSecret?: string;
                        /** @description CRM destinations: record field -> CRM property, over the default mapping (see README "CRM destinations"). Fields: orgNumber, name, country, orgFormCode, orgFormDescription, naceCode1, naceDescription1, employeeCount, businessAddressStreet, businessAddressPostalCode, businessAddressCity, businessAddressMunicipality, businessAddressMuniNo, businessAddressCountryCode, foundingDate, website, primaryDomain, phone, latestRevenue, latestNetResult, companyStatus, marketingProtected. */
                        fieldMappings?: {
                            [key: string]: string | {
                                property: string;
                                /**
                                 * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                 * @enum {string}
                                 */
                                rule?: "overwrite" | "fillIfEmpty";
                            };
                        };
                        /** @description CRM destinations: push companies that declined advertising (DK reklamebeskyttet, SE reklamspärr) too, for uses other than marketing. Default false: they are skipped. */
                        allowMarketingProtected?: boolean;
                    };
                    /** @description Default true */
                    isActive?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0b9c7f4e-8d1a-4f6b-9a55-2e3c4d5f6a7b",
                     *       "name": "crm-webhook",
                     *       "type": "webhook",
                     *       "isActive": true,
                     *       "createdAt": "2026-04-20T12:34:56.000Z",
                     *       "updatedAt": "2026-04-20T12:34:56.000Z",
                     *       "config": {
                     *         "url": "https://hooks.acme.example/ncd",
                     *         "method": "POST",
                     *         "headers": {
                     *           "Authorization": "***"
                     *         },
                     *         "signing": true
                     *       }
                     *     }
                     */
                    "application/json": {
                        id: string;
                        name: string;
                        type: string;
                        isActive: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Absent only when the stored config cannot be decrypted (see warnings). Tokens and secrets are never served. */
                        config?: {
                            url: string;
                            method: string;
                            /** @description Header names; every value is masked as "***" */
                            headers: {
                                [key: string]: string;
                            };
                            /** @description Whether a signing secret is set (the secret is never served) */
                            signing: boolean;
                        } | {
                            /**
                             * @description How the destination is connected
                             * @enum {string}
                             */
                            auth: "private-app" | "oauth";
                            portalId?: string;
                            /** @description The unique company property the upsert is keyed by */
                            orgNumberProperty: string;
                            fieldMappings: {
                                [key: string]: {
                                    property: string;
                                    /**
                                     * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                     * @enum {string}
                                     */
                                    rule: "overwrite" | "fillIfEmpty";
                                };
                            };
                            allowMarketingProtected: boolean;
                        } | {
                            workspaceSlug?: string;
                            /** @description The unique company attribute records are asserted by */
                            orgNumberAttribute: string;
                            fieldMappings: {
                                [key: string]: {
                                    property: string;
                                    /**
                                     * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                     * @enum {string}
                                     */
                                    rule: "overwrite" | "fillIfEmpty";
                                };
                            };
                            allowMarketingProtected: boolean;
                            /** @description Whether a webhook secret is set (enrich-on-write) */
                            webhookSigning: boolean;
                        };
                        /** @description E.g. a plain-http URL */
                        warnings?: string[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: `destination_inactive`, `destination_name_taken`. See /errors */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`, `destination_unreadable`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getDestinationsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0b9c7f4e-8d1a-4f6b-9a55-2e3c4d5f6a7b",
                     *       "name": "crm-webhook",
                     *       "type": "webhook",
                     *       "isActive": true,
                     *       "createdAt": "2026-04-20T12:34:56.000Z",
                     *       "updatedAt": "2026-04-20T12:34:56.000Z",
                     *       "config": {
                     *         "url": "https://hooks.acme.example/ncd",
                     *         "method": "POST",
                     *         "headers": {
                     *           "Authorization": "***"
                     *         },
                     *         "signing": true
                     *       }
                     *     }
                     */
                    "application/json": {
                        id: string;
                        name: string;
                        type: string;
                        isActive: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Absent only when the stored config cannot be decrypted (see warnings). Tokens and secrets are never served. */
                        config?: {
                            url: string;
                            method: string;
                            /** @description Header names; every value is masked as "***" */
                            headers: {
                                [key: string]: string;
                            };
                            /** @description Whether a signing secret is set (the secret is never served) */
                            signing: boolean;
                        } | {
                            /**
                             * @description How the destination is connected
                             * @enum {string}
                             */
                            auth: "private-app" | "oauth";
                            portalId?: string;
                            /** @description The unique company property the upsert is keyed by */
                            orgNumberProperty: string;
                            fieldMappings: {
                                [key: string]: {
                                    property: string;
                                    /**
                                     * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                     * @enum {string}
                                     */
                                    rule: "overwrite" | "fillIfEmpty";
                                };
                            };
                            allowMarketingProtected: boolean;
                        } | {
                            workspaceSlug?: string;
                            /** @description The unique company attribute records are asserted by */
                            orgNumberAttribute: string;
                            fieldMappings: {
                                [key: string]: {
                                    property: string;
                                    /**
                                     * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                     * @enum {string}
                                     */
                                    rule: "overwrite" | "fillIfEmpty";
                                };
                            };
                            allowMarketingProtected: boolean;
                            /** @description Whether a webhook secret is set (enrich-on-write) */
                            webhookSigning: boolean;
                        };
                        /** @description E.g. a plain-http URL */
                        warnings?: string[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `destination_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`, `destination_unreadable`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    putDestinationsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "isActive": false
                 *     }
                 */
                "application/json": {
                    /**
                     * @description `webhook` (one request per push), `hubspot` (CRM v3 batch upsert by organisation number) or `attio` (record assert by organisation number)
                     * @enum {string}
                     */
                    type?: "webhook" | "hubspot" | "attio";
                    config?: {
                        /** @description webhook (required): https expected; plain http is accepted with a warning. The host must resolve only to public addresses (unless ALLOW_PRIVATE_DESTINATIONS=true). */
                        url?: string;
                        /**
                         * @description Default POST
                         * @enum {string}
                         */
                        method?: "POST" | "PUT" | "PATCH";
                        /** @description Extra request headers (at most 20; values at most 1 KB, no CR/LF). Host, Content-Length, Transfer-Encoding, Connection, Content-Type and the webhook-* signing headers cannot be set. Values are stored encrypted and never served back. */
                        headers?: {
                            [key: string]: string;
                        };
                        /** @description webhook, optional, write-only. When set, requests carry Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). `whsec_<base64>` uses the decoded bytes as the key; otherwise 16-256 printable ASCII characters. */
                        signingSecret?: string;
                        /** @description hubspot, write-only: a private app access token (scopes crm.objects.companies.read/write, crm.schemas.companies.read/write). Not needed for a destination made by the OAuth install. */
                        accessToken?: string;
                        /** @description hubspot: the account (hub) id, so its webhooks reach this destination */
                        portalId?: string;
                        /** @description attio (required), write-only: an Attio API token */
                        apiKey?: string;
                        /** @description attio: the workspace, for reference */
                        workspaceSlug?: string;
                        /** @description attio, write-only: the secret of the Attio webhook that calls POST /api/integrations/attio/webhook (enrich-on-write) */
                        webhookSecret?: string;
                        /** @description CRM destinations: record field -> CRM property, over the default mapping (see README "CRM destinations"). Fields: orgNumber, name, country, orgFormCode, orgFormDescription, naceCode1, naceDescription1, employeeCount, businessAddressStreet, businessAddressPostalCode, businessAddressCity, businessAddressMunicipality, businessAddressMuniNo, businessAddressCountryCode, foundingDate, website, primaryDomain, phone, latestRevenue, latestNetResult, companyStatus, marketingProtected. */
                        fieldMappings?: {
                            [key: string]: string | {
                                property: string;
                                /**
                                 * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                 * @enum {string}
                                 */
                                rule?: "overwrite" | "fillIfEmpty";
                            };
                        };
                        /** @description CRM destinations: push companies that declined advertising (DK reklamebeskyttet, SE reklamspärr) too, for uses other than marketing. Default false: they are skipped. */
                        allowMarketingProtected?: boolean;
                    };
                    isActive?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0b9c7f4e-8d1a-4f6b-9a55-2e3c4d5f6a7b",
                     *       "name": "crm-webhook",
                     *       "type": "webhook",
                     *       "isActive": true,
                     *       "createdAt": "2026-04-20T12:34:56.000Z",
                     *       "updatedAt": "2026-04-20T12:34:56.000Z",
                     *       "config": {
                     *         "url": "https://hooks.acme.example/ncd",
                     *         "method": "POST",
                     *         "headers": {
                     *           "Authorization": "***"
                     *         },
                     *         "signing": true
                     *       }
                     *     }
                     */
                    "application/json": {
                        id: string;
                        name: string;
                        type: string;
                        isActive: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Absent only when the stored config cannot be decrypted (see warnings). Tokens and secrets are never served. */
                        config?: {
                            url: string;
                            method: string;
                            /** @description Header names; every value is masked as "***" */
                            headers: {
                                [key: string]: string;
                            };
                            /** @description Whether a signing secret is set (the secret is never served) */
                            signing: boolean;
                        } | {
                            /**
                             * @description How the destination is connected
                             * @enum {string}
                             */
                            auth: "private-app" | "oauth";
                            portalId?: string;
                            /** @description The unique company property the upsert is keyed by */
                            orgNumberProperty: string;
                            fieldMappings: {
                                [key: string]: {
                                    property: string;
                                    /**
                                     * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                     * @enum {string}
                                     */
                                    rule: "overwrite" | "fillIfEmpty";
                                };
                            };
                            allowMarketingProtected: boolean;
                        } | {
                            workspaceSlug?: string;
                            /** @description The unique company attribute records are asserted by */
                            orgNumberAttribute: string;
                            fieldMappings: {
                                [key: string]: {
                                    property: string;
                                    /**
                                     * @description `overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM
                                     * @enum {string}
                                     */
                                    rule: "overwrite" | "fillIfEmpty";
                                };
                            };
                            allowMarketingProtected: boolean;
                            /** @description Whether a webhook secret is set (enrich-on-write) */
                            webhookSigning: boolean;
                        };
                        /** @description E.g. a plain-http URL */
                        warnings?: string[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `destination_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`, `destination_unreadable`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteDestinationsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `destination_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`, `destination_unreadable`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postPushByDestinationName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                destinationName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "orgNumbers": [
                 *         "923609016",
                 *         "111111111"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description 9-digit Norwegian organisation numbers (this or pairs) */
                    orgNumbers?: string[];
                    /** @description Companies of any Nordic country (this or orgNumbers) */
                    pairs?: {
                        orgNumber: string;
                        /** @enum {string} */
                        country: "NO" | "FI" | "SE" | "DK";
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "destination": "crm-webhook",
                     *       "requested": 2,
                     *       "delivered": 1,
                     *       "notFound": [
                     *         "111111111"
                     *       ],
                     *       "unavailable": [],
                     *       "errors": []
                     *     }
                     */
                    "application/json": {
                        destination: string;
                        /** @description Distinct org numbers asked for */
                        requested: number;
                        /** @description Companies the destination accepted (2xx); 0 when the batch failed */
                        delivered: number;
                        notFound: string[];
                        /** @description The registry did not answer in time; not sent */
                        unavailable: string[];
                        /** @description CRM destinations: records the CRM created */
                        created?: number;
                        /** @description CRM destinations: existing records the CRM updated */
                        updated?: number;
                        /** @description CRM destinations: companies not sent (see skippedCompanies) */
                        skipped?: number;
                        /** @description CRM destinations: companies not written (see errors) */
                        failed?: number;
                        /** @description E.g. a company that declined advertising, while the destination does not allow them */
                        skippedCompanies?: {
                            orgNumber: string;
                            country: string;
                            reason: string;
                        }[];
                        /** @description webhook: the failed batch (a push is one batch); CRM destinations: one entry per company not written. Empty on success. */
                        errors: ({
                            batch: number;
                            /** @enum {string} */
                            class: "http_status" | "timeout" | "network" | "blocked" | "invalid_request";
                            /** @description The destination's HTTP status, for http_status */
                            status?: number;
                            /** @description Fixed text per class; never what the destination answered */
                            message: string;
                        } | {
                            orgNumber: string;
                            country: string;
                            /** @description What went wrong: the register's or the CRM's reason */
                            error: string;
                        })[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Forbidden: `push_not_allowed`. See /errors */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `company_not_found`, `destination_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: `destination_inactive`. See /errors */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`, `destination_unreadable`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Bad gateway: `crm_unavailable`. See /errors */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCompaniesByOrgNumberShareholders: {
        parameters: {
            query?: {
                country?: "NO" | "DK";
                /** @description Register year (the snapshot as of 31 December) */
                year?: number;
                includePersons?: boolean;
            };
            header?: never;
            path: {
                /** @description NO: 9-digit organisation number; DK: 8-digit CVR number */
                orgNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "shareholderName": "NÆRINGS- OG FISKERIDEPARTEMENTET",
                     *           "shareholderOrgNumber": "912660680",
                     *           "shareholderType": "company",
                     *           "postalCode": "0032",
                     *           "location": "OSLO",
                     *           "countryCode": "NO",
                     *           "shareClass": "Ordinære aksjer",
                     *           "shareCount": 1867621466,
                     *           "totalSharesInCompany": 2787574286,
                     *           "year": 2024,
                     *           "ownershipPct": 67
                     *         },
                     *         {
                     *           "shareholderName": "Kari Nordmann",
                     *           "shareholderType": "person",
                     *           "shareholderBirthYear": 1971,
                     *           "shareClass": "Ordinære aksjer",
                     *           "shareCount": 1200,
                     *           "totalSharesInCompany": 2787574286,
                     *           "year": 2024,
                     *           "ownershipPct": 0
                     *         }
                     *       ],
                     *       "availableYears": [
                     *         2024,
                     *         2023,
                     *         2022
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            shareholderName: string | null;
                            shareholderOrgNumber?: string | null;
                            /**
                             * @description other (DK): an owner that is neither a person nor a company with a CVR number
                             * @enum {string}
                             */
                            shareholderType: "company" | "person" | "foreign" | "other";
                            shareholderBirthYear?: number | null;
                            postalCode?: string | null;
                            location?: string | null;
                            countryCode?: string | null;
                            /** @description Share class; NO only (CVR registers no share counts) */
                            shareClass?: string;
                            /** @description Shares held; NO only (CVR registers no share counts) */
                            shareCount?: number;
                            /** @description Shares of the class; the sum of the stored positions when the register gives none; NO only (CVR registers no share counts) */
                            totalSharesInCompany?: number;
                            /** @description Register year; NO only (CVR registers no share counts) */
                            year?: number;
                            /** @description NO: shareCount / totalSharesInCompany × 100, computed at read time; DK: the lower bound of ownershipPctRange */
                            ownershipPct: number;
                            /** @description DK only: the band CVR registers the owner's share in (EJERANDEL_PROCENT), in percent; ownershipPct is its lower bound */
                            ownershipPctRange?: {
                                low: number;
                                high: number;
                            };
                        }[];
                        /** @description Years with data for this company, newest first */
                        availableYears: number[];
                        /** @description Why `data` is empty when the reason is what this server holds: no register year loaded, or the asked year is not loaded (the loaded years are named), e.g. "Register year 2019 is not loaded on this server; loaded years: 2024, 2023". Absent otherwise. */
                        note?: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCompaniesByOrgNumberGroup: {
        parameters: {
            query?: {
                country?: "NO" | "DK";
            };
            header?: never;
            path: {
                /** @description NO: 9-digit organisation number; DK: 8-digit CVR number */
                orgNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "root": {
                     *         "orgNumber": "923609016",
                     *         "name": "EQUINOR ASA",
                     *         "orgFormCode": "ASA",
                     *         "employeeCount": 21408,
                     *         "children": [
                     *           {
                     *             "orgNumber": "987654321",
                     *             "name": "EQUINOR ENERGY AS",
                     *             "orgFormCode": "AS",
                     *             "employeeCount": 4500,
                     *             "children": []
                     *           }
                     *         ]
                     *       },
                     *       "totalMembers": 2,
                     *       "_sources": {
                     *         "attribution": [
                     *           "Brønnøysundregistrene"
                     *         ],
                     *         "fields": {
                     *           "companyCore": "Brønnøysundregistrene",
                     *           "groupHierarchy": "Brønnøysundregistrene"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        root: components["schemas"]["GroupNode"];
                        /** @description Members in this tree (at most 500) */
                        totalMembers: number;
                        /** @description Present (true) when the group has more than 500 members */
                        truncated?: boolean;
                        /** @description Set for a company with no parent and no subsidiaries */
                        message?: string;
                        _sources: {
                            attribution: string[];
                            fields: {
                                companyCore: string;
                                groupHierarchy: string;
                            };
                        };
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `company_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCompaniesByOrgNumberOwners: {
        parameters: {
            query?: {
                country?: "NO" | "DK";
                /** @description Register year (the snapshot as of 31 December) */
                year?: number;
                /** @description Smallest effective share (percent) listed */
                threshold?: number;
                /** @description Most ownership layers walked */
                maxDepth?: number;
                includePersons?: boolean;
            };
            header?: never;
            path: {
                /** @description NO: 9-digit organisation number; DK: 8-digit CVR number */
                orgNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "orgNumber": "923609016",
                     *       "country": "NO",
                     *       "name": "EKSEMPEL AS",
                     *       "basis": "shareholder-register",
                     *       "year": 2024,
                     *       "yearFallbacks": [],
                     *       "threshold": 25,
                     *       "maxDepth": 10,
                     *       "candidates": [
                     *         {
                     *           "kind": "company",
                     *           "orgNumber": "987654325",
                     *           "name": "TOPP HOLDING AS",
                     *           "country": "NO",
                     *           "effectivePct": 48,
                     *           "controls": true,
                     *           "stopReason": "no-owners-known",
                     *           "pathCount": 1,
                     *           "paths": [
                     *             [
                     *               {
                     *                 "kind": "company",
                     *                 "orgNumber": "914778271",
                     *                 "name": "MELLOM AS",
                     *                 "country": "NO",
                     *                 "pct": 60,
                     *                 "year": 2024,
                     *                 "shareClass": "Ordinære aksjer"
                     *               },
                     *               {
                     *                 "kind": "company",
                     *                 "orgNumber": "987654325",
                     *                 "name": "TOPP HOLDING AS",
                     *                 "country": "NO",
                     *                 "pct": 80,
                     *                 "year": 2024,
                     *                 "shareClass": "Ordinære aksjer"
                     *               }
                     *             ]
                     *           ]
                     *         }
                     *       ],
                     *       "candidatesBelowThreshold": 1,
                     *       "untracedPct": 52,
                     *       "hiddenPersonsPct": 0,
                     *       "flags": {
                     *         "layers": 2,
                     *         "jurisdictions": 1,
                     *         "jurisdictionCodes": [
                     *           "NO"
                     *         ],
                     *         "cycle": {
                     *           "value": false,
                     *           "evidence": []
                     *         },
                     *         "trustOrArrangement": {
                     *           "value": false,
                     *           "evidence": []
                     *         },
                     *         "nonEeaJurisdiction": {
                     *           "value": false,
                     *           "evidence": []
                     *         },
                     *         "nominee": {
                     *           "value": false,
                     *           "evidence": []
                     *         },
                     *         "complexStructure": {
                     *           "value": false,
                     *           "evidence": [
                     *             "2 ownership layer(s), fewer than 3"
                     *           ]
                     *         }
                     *       },
                     *       "companiesInTree": 3,
                     *       "truncated": false
                     *     }
                     */
                    "application/json": {
                        orgNumber: string;
                        /** @enum {string} */
                        country: "NO" | "DK";
                        name: string | null;
                        /**
                         * @description Derived from the shareholder registers (Aksjonærregisteret, CVR's owner register), not from a register of beneficial owners
                         * @enum {string}
                         */
                        basis: "shareholder-register";
                        year: number | null;
                        /** @description Companies with no rows in the year, read from their latest earlier year */
                        yearFallbacks: {
                            orgNumber: string;
                            name: string | null;
                            requestedYear: number;
                            usedYear: number;
                        }[];
                        threshold: number;
                        maxDepth: number;
                        candidates: {
                            /** @enum {string} */
                            kind: "person" | "company" | "state" | "foreign" | "unknown";
                            orgNumber: string | null;
                            name: string | null;
                            country: string | null;
                            birthYear?: number | null;
                            effectivePct: number | null;
                            /** @description DK: the band the share lies in, from CVR's registered bands (never a false point value) */
                            effectivePctRange?: {
                                low: number;
                                high: number;
                            };
                            controls: boolean | null;
                            /**
                             * @description Why the walk stopped: a natural person, an owner outside the register, a company with no owners known in the year, maxDepth, an owner already on the path, or shares no row explains (unknown / widely held)
                             * @enum {string}
                             */
                            stopReason: "person" | "foreign-owner" | "no-owners-known" | "depth" | "cycle" | "unknown";
                            /** @description Paths to this owner (at most 50 are listed) */
                            pathCount: number;
                            /** @description Each path from the company up to this owner */
                            paths: {
                                /** @enum {string} */
                                kind: "company" | "person" | "foreign";
                                orgNumber: string | null;
                                name: string | null;
                                country: string | null;
                                birthYear?: number | null;
                                pct: number | null;
                                /** @description DK: the band the share lies in, from CVR's registered bands (never a false point value) */
                                pctRange?: {
                                    low: number;
                                    high: number;
                                };
                                year: number | null;
                                shareClass: string | null;
                            }[][];
                        }[];
                        candidatesBelowThreshold: number;
                        untracedPct: number | null;
                        /** @description DK: the band the share lies in, from CVR's registered bands (never a false point value) */
                        untracedPctRange?: {
                            low: number;
                            high: number;
                        };
                        hiddenPersonsPct?: number | null;
                        flags: {
                            /** @description The most ownership layers on any path */
                            layers: number;
                            jurisdictions: number;
                            jurisdictionCodes: string[];
                            cycle: {
                                value: boolean | null;
                                /** @description The entities (never persons) that set the flag */
                                evidence: string[];
                            };
                            trustOrArrangement: {
                                value: boolean | null;
                                /** @description The entities (never persons) that set the flag */
                                evidence: string[];
                            };
                            nonEeaJurisdiction: {
                                value: boolean | null;
                                /** @description The entities (never persons) that set the flag */
                                evidence: string[];
                            };
                            nominee: {
                                value: boolean | null;
                                /** @description The entities (never persons) that set the flag */
                                evidence: string[];
                            };
                            complexStructure: {
                                value: boolean | null;
                                /** @description The entities (never persons) that set the flag */
                                evidence: string[];
                            };
                        };
                        companiesInTree: number;
                        /** @description True when the walk stopped at its cap of 5000 paths */
                        truncated: boolean;
                        /** @description Set when no owner is found, saying why: no register year loaded on this server, the asked year not loaded (the loaded years named), or no owners of the company in the register */
                        message?: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCompaniesByOrgNumberOwnershipChanges: {
        parameters: {
            query?: {
                country?: "NO" | "DK";
                /** @description Register year (the snapshot as of 31 December) */
                fromYear?: number;
                /** @description Register year (the snapshot as of 31 December) */
                toYear?: number;
                includePersons?: boolean;
            };
            header?: never;
            path: {
                /** @description NO: 9-digit organisation number; DK: 8-digit CVR number */
                orgNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "orgNumber": "923609016",
                     *       "country": "NO",
                     *       "basis": "shareholder-register",
                     *       "changeThresholdPp": 5,
                     *       "years": [
                     *         2023,
                     *         2024
                     *       ],
                     *       "changes": [
                     *         {
                     *           "fromYear": 2023,
                     *           "toYear": 2024,
                     *           "entered": [],
                     *           "left": [],
                     *           "rose": [
                     *             {
                     *               "kind": "company",
                     *               "orgNumber": "987654325",
                     *               "name": "TOPP HOLDING AS",
                     *               "country": "NO",
                     *               "pctBefore": 50,
                     *               "pctAfter": 60,
                     *               "changePp": 10
                     *             }
                     *           ],
                     *           "fell": [],
                     *           "largestOwner": {
                     *             "before": {
                     *               "kind": "company",
                     *               "orgNumber": "987654325",
                     *               "name": "TOPP HOLDING AS",
                     *               "country": "NO",
                     *               "pct": 50
                     *             },
                     *             "after": {
                     *               "kind": "company",
                     *               "orgNumber": "987654325",
                     *               "name": "TOPP HOLDING AS",
                     *               "country": "NO",
                     *               "pct": 60
                     *             },
                     *             "changed": false
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        orgNumber: string;
                        /** @enum {string} */
                        country: "NO";
                        /**
                         * @description Derived from the shareholder registers (Aksjonærregisteret, CVR's owner register), not from a register of beneficial owners
                         * @enum {string}
                         */
                        basis: "shareholder-register";
                        changeThresholdPp: number;
                        /** @description Register years with rows for the company, oldest first */
                        years: number[];
                        changes: {
                            fromYear: number;
                            /** @description The next year with rows for the company (a year without rows is skipped) */
                            toYear: number;
                            entered: {
                                /** @enum {string} */
                                kind: "company" | "person" | "foreign";
                                orgNumber: string | null;
                                name: string | null;
                                country: string | null;
                                birthYear?: number | null;
                                pctBefore: number;
                                pctAfter: number;
                                /** @description pctAfter − pctBefore, in percentage points */
                                changePp: number;
                            }[];
                            left: {
                                /** @enum {string} */
                                kind: "company" | "person" | "foreign";
                                orgNumber: string | null;
                                name: string | null;
                                country: string | null;
                                birthYear?: number | null;
                                pctBefore: number;
                                pctAfter: number;
                                /** @description pctAfter − pctBefore, in percentage points */
                                changePp: number;
                            }[];
                            rose: {
                                /** @enum {string} */
                                kind: "company" | "person" | "foreign";
                                orgNumber: string | null;
                                name: string | null;
                                country: string | null;
                                birthYear?: number | null;
                                pctBefore: number;
                                pctAfter: number;
                                /** @description pctAfter − pctBefore, in percentage points */
                                changePp: number;
                            }[];
                            fell: {
                                /** @enum {string} */
                                kind: "company" | "person" | "foreign";
                                orgNumber: string | null;
                                name: string | null;
                                country: string | null;
                                birthYear?: number | null;
                                pctBefore: number;
                                pctAfter: number;
                                /** @description pctAfter − pctBefore, in percentage points */
                                changePp: number;
                            }[];
                            largestOwner: {
                                before: {
                                    /** @enum {string} */
                                    kind: "company" | "person" | "foreign";
                                    orgNumber: string | null;
                                    name: string | null;
                                    country: string | null;
                                    birthYear?: number | null;
                                    pct: number;
                                } | null;
                                after: {
                                    /** @enum {string} */
                                    kind: "company" | "person" | "foreign";
                                    orgNumber: string | null;
                                    name: string | null;
                                    country: string | null;
                                    birthYear?: number | null;
                                    pct: number;
                                } | null;
                                changed: boolean;
                            };
                        }[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getShareholdersByOwner: {
        parameters: {
            query: {
                /**
                 * @description Organisation number of the holder: NO 9 digits, DK 8 digits (CVR)
                 * @example 923609016
                 */
                shareholderOrgNumber: string;
                country?: "NO" | "DK";
                /** @description Register year (the snapshot as of 31 December) */
                year?: number;
                /** @description Also every company held through the companies it holds, with the effective share and the paths */
                transitive?: boolean;
                /** @description transitive=true: most layers walked down (default 10) */
                maxDepth?: number;
                /** @description transitive=true: rows per page (default 20, capped by tier) */
                limit?: number;
                /** @description transitive=true: from a prior nextCursor */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "shareholderOrgNumber": "923609016",
                     *       "data": [
                     *         {
                     *           "orgNumber": "987654321",
                     *           "companyName": "EQUINOR ENERGY AS",
                     *           "orgFormCode": "AS",
                     *           "employeeCount": 4500,
                     *           "shareClass": "Ordinære aksjer",
                     *           "shareCount": 1000,
                     *           "totalSharesInCompany": 1000,
                     *           "year": 2024,
                     *           "ownershipPct": 100
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        shareholderOrgNumber: string;
                        data: {
                            orgNumber: string;
                            companyName: string | null;
                            orgFormCode: string | null;
                            employeeCount: number | null;
                            /** @description Share class; NO only (CVR registers no share counts) */
                            shareClass?: string;
                            /** @description Shares held; NO only (CVR registers no share counts) */
                            shareCount?: number;
                            /** @description Shares of the class; NO only (CVR registers no share counts) */
                            totalSharesInCompany?: number;
                            /** @description Register year; NO only (CVR registers no share counts) */
                            year?: number;
                            /** @description The holder’s share of the company; with transitive=true the effective share (effectivePct, DK its lower bound) */
                            ownershipPct: number;
                            /** @description DK only: the band CVR registers the owner's share in (EJERANDEL_PROCENT), in percent; ownershipPct is its lower bound */
                            ownershipPctRange?: {
                                low: number;
                                high: number;
                            };
                            effectivePct?: number | null;
                            /** @description transitive=true, DK: the band the effective share lies in */
                            effectivePctRange?: {
                                low: number;
                                high: number;
                            };
                            controls?: boolean | null;
                            /** @description transitive=true: the fewest layers on any path (1: held directly) */
                            depth?: number;
                            /** @description transitive=true: paths to this company (at most 20 are listed) */
                            pathCount?: number;
                            /** @description transitive=true: each path from the holder down to this company */
                            paths?: {
                                /** @description The company held at this step */
                                orgNumber: string;
                                name: string | null;
                                pct: number | null;
                                /** @description DK only: the band CVR registers the owner's share in (EJERANDEL_PROCENT), in percent; ownershipPct is its lower bound */
                                pctRange?: {
                                    low: number;
                                    high: number;
                                };
                                year: number | null;
                                shareClass: string | null;
                            }[][];
                        }[];
                        transitive?: boolean;
                        /**
                         * @description transitive=true: derived from the shareholder registers, not a register of beneficial owners
                         * @enum {string}
                         */
                        basis?: "shareholder-register";
                        year?: number | null;
                        maxDepth?: number;
                        /** @description transitive=true: companies reached in all pages */
                        totalCompanies?: number;
                        /** @description transitive=true: the walk stopped at its cap (2000 companies, 5000 paths) */
                        truncated?: boolean;
                        /** @description transitive=true: some path came back to a company on it */
                        cycle?: boolean;
                        nextCursor?: string | null;
                        hasMore?: boolean;
                        /** @description Why `data` is empty when the reason is what this server holds: no register year loaded, or the asked year is not loaded (the loaded years are named), e.g. "Register year 2019 is not loaded on this server; loaded years: 2024, 2023". Absent otherwise. */
                        note?: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getEnrichment: {
        parameters: {
            query?: {
                /** @description Default: every status except pending */
                status?: "confirmed" | "ambiguous" | "rejected" | "pending";
                minConfidence?: number;
                limit?: number;
                /** @description Offset pagination (not a cursor) */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "summary": {
                     *         "confirmed": 120000,
                     *         "ambiguous": 8000,
                     *         "rejected": 4500
                     *       },
                     *       "total": 132500,
                     *       "limit": 50,
                     *       "offset": 0,
                     *       "data": [
                     *         {
                     *           "orgNumber": "912345671",
                     *           "companyName": "KAFFEBAR AS",
                     *           "status": "confirmed",
                     *           "confidence": 92,
                     *           "primaryDomain": "kaffebar.no",
                     *           "linkedinHandle": "kaffebar-as",
                     *           "facebookHandle": null,
                     *           "confirmedDomains": [
                     *             "kaffebar.no"
                     *           ],
                     *           "candidates": [
                     *             {
                     *               "domain": "kaffebar.no",
                     *               "host": "www.kaffebar.no",
                     *               "origin": "brreg-website",
                     *               "status": "confirmed",
                     *               "score": 92,
                     *               "ledger": [
                     *                 {
                     *                   "signal": "origin",
                     *                   "points": 40,
                     *                   "note": "website reported to the registry"
                     *                 },
                     *                 {
                     *                   "signal": "org-number",
                     *                   "points": 40,
                     *                   "note": "org number 912345671 on the page"
                     *                 },
                     *                 {
                     *                   "signal": "name-in-title",
                     *                   "points": 12,
                     *                   "note": "title names the company"
                     *                 }
                     *               ],
                     *               "sharedByCompanies": 1,
                     *               "url": "https://www.kaffebar.no/",
                     *               "finalUrl": "https://www.kaffebar.no/",
                     *               "httpStatus": 200,
                     *               "redirects": [],
                     *               "error": null,
                     *               "errorCode": null,
                     *               "title": "Kaffebar – kaffe og kaker på Grünerløkka",
                     *               "signals": {
                     *                 "reachable": true,
                     *                 "orgNumberOnPage": true,
                     *                 "otherOrgNumbers": [],
                     *                 "nameOnPage": true,
                     *                 "nameInTitle": true,
                     *                 "nameIsShort": false,
                     *                 "parkedMarkers": [],
                     *                 "defaultPageMarkers": [],
                     *                 "finalDomain": "kaffebar.no",
                     *                 "redirectedToOtherDomain": false
                     *               },
                     *               "redirectsToCandidate": null,
                     *               "probedAt": "2026-04-19T02:10:00.000Z"
                     *             }
                     *           ],
                     *           "stage": "done",
                     *           "completedAt": "2026-04-19T02:10:05.000Z",
                     *           "brregWebsite": "www.kaffebar.no",
                     *           "orgForm": "AS",
                     *           "city": "OSLO",
                     *           "employees": 12
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description Companies per status at or above minConfidence (the status filter does not apply) */
                        summary: {
                            confirmed: number;
                            ambiguous: number;
                            rejected: number;
                        };
                        /** @description Rows matching every filter */
                        total: number;
                        limit: number;
                        offset: number;
                        data: {
                            orgNumber: string;
                            companyName: string;
                            /** @enum {string} */
                            status: "confirmed" | "ambiguous" | "rejected" | "pending";
                            /** @description The best candidate's score */
                            confidence: number;
                            primaryDomain: string | null;
                            linkedinHandle: string | null;
                            facebookHandle: string | null;
                            confirmedDomains: string[];
                            candidates: {
                                /** @description Registrable domain, the unit scored */
                                domain: string;
                                /** @description Host tried first */
                                host: string;
                                /** @enum {string} */
                                origin: "brreg-website" | "email-domain" | "name-guess";
                                /**
                                 * @description pending until scored
                                 * @enum {string}
                                 */
                                status: "confirmed" | "ambiguous" | "rejected" | "pending";
                                score: number | null;
                                /** @description Every point given or taken; score = clamp(sum, 0, 100) */
                                ledger: {
                                    /** @description origin, live-page, unreachable, org-number, other-org-number, name-in-title, name-on-page, parked, default-page, redirected-away, redirects-to-candidate, shared-domain */
                                    signal: string;
                                    points: number;
                                    note: string;
                                }[];
                                /** @description Companies whose registry website or e-mail domain is this domain (this one counted) */
                                sharedByCompanies: number | null;
                                /** @description First URL requested */
                                url: string | null;
                                /** @description URL of the last answer */
                                finalUrl: string | null;
                                /** @description Status of the last answer */
                                httpStatus: number | null;
                                redirects: string[];
                                /**
                                 * @description Why no usable page: failure class
                                 * @enum {string|null}
                                 */
                                error: "dns" | "private-address" | "blocked" | "timeout" | "network" | "too-many-redirects" | "robots-disallowed" | "not-html" | "http-error" | null;
                                /** @description System code of a network failure, or what was blocked */
                                errorCode: string | null;
                                title: string | null;
                                signals: {
                                    /** @description 2xx with HTML */
                                    reachable: boolean;
                                    orgNumberOnPage: boolean;
                                    /** @description Other valid org numbers on the page (at most 5) */
                                    otherOrgNumbers: string[];
                                    nameOnPage: boolean;
                                    nameInTitle: boolean;
                                    /** @description Core name under 4 letters: name matches count half */
                                    nameIsShort: boolean;
                                    parkedMarkers: string[];
                                    defaultPageMarkers: string[];
                                    finalDomain: string | null;
                                    redirectedToOtherDomain: boolean;
                                } | null;
                                /** @description The final domain is this other candidate (an alias) */
                                redirectsToCandidate: string | null;
                                /** Format: date-time */
                                probedAt: string | null;
                            }[];
                            /**
                             * @description Last stage completed in the current pass
                             * @enum {string}
                             */
                            stage: "candidates" | "probed" | "scored" | "done";
                            /**
                             * Format: date-time
                             * @description End of the last complete pass
                             */
                            completedAt: string | null;
                            /** @description The website the company reported to the registry */
                            brregWebsite: string | null;
                            orgForm: string | null;
                            city: string | null;
                            employees: number | null;
                        }[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getInspections: {
        parameters: {
            query?: {
                /** @description 9-digit Norwegian organisation number */
                orgNumber?: string;
                /** @description Lowest totalRating, inclusive (0 best … 3 worst) */
                minRating?: number;
                /** @description Highest totalRating, inclusive */
                maxRating?: number;
                /** @description 4-digit postal code */
                postnr?: string;
                /** @description Visits on or after this day (YYYY-MM-DD) */
                fromDate?: string;
                /** @description Visits on or before this day (YYYY-MM-DD) */
                toDate?: string;
                sort?: "date" | "totalRating" | "name";
                order?: "asc" | "desc";
                /** @description 1–100; values above your tier’s maxPageSize are capped */
                limit?: number;
                /** @description nextCursor of the previous page (same query) */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "88213",
                     *           "orgNumber": "912345671",
                     *           "name": "Kaffebar AS",
                     *           "postnr": "0150",
                     *           "totalRating": 0,
                     *           "date": "2026-02-14T00:00:00.000Z",
                     *           "office": "Region Stor-Oslo",
                     *           "municipality": "Oslo",
                     *           "municipalityNo": "0301",
                     *           "upstreamId": "Z2602141030219990111KDDBT",
                     *           "venueId": "Z0601051347188430269OGPIQ",
                     *           "address": "Markveien 35",
                     *           "poststed": "OSLO",
                     *           "inspectionType": "ordinary",
                     *           "themes": [
                     *             {
                     *               "number": 1,
                     *               "nameNo": "Rutiner og ledelse",
                     *               "nameNn": "Rutinar og leiing",
                     *               "grade": 0,
                     *               "applicable": true,
                     *               "assessed": true
                     *             },
                     *             {
                     *               "number": 2,
                     *               "nameNo": "Lokaler og utstyr",
                     *               "nameNn": "Lokale og utstyr",
                     *               "grade": 1,
                     *               "applicable": true,
                     *               "assessed": true
                     *             },
                     *             {
                     *               "number": 3,
                     *               "nameNo": "Mathåndtering og tilberedning",
                     *               "nameNn": "Mathandtering og tilverking",
                     *               "grade": 0,
                     *               "applicable": true,
                     *               "assessed": true
                     *             },
                     *             {
                     *               "number": 4,
                     *               "nameNo": "Merking og sporbarhet",
                     *               "nameNn": "Merking og sporbarheit",
                     *               "grade": 4,
                     *               "applicable": false,
                     *               "assessed": false
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "nextCursor": "eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8",
                     *       "hasMore": true
                     *     }
                     */
                    "application/json": {
                        data: {
                            id: string;
                            /** @description As Mattilsynet gives it (venue or legal entity); null when blank or invalid upstream */
                            orgNumber: string | null;
                            name: string;
                            /** @description 4-digit postal code */
                            postnr: string | null;
                            /** @description 0 best … 3 worst */
                            totalRating: number;
                            /**
                             * Format: date-time
                             * @description Day of the visit, midnight UTC
                             */
                            date: string;
                            /** @description Mattilsynet region, derived from the municipality */
                            office: string | null;
                            /** @description Municipality name, from the postal code */
                            municipality: string | null;
                            /** @description 4-digit municipality number, from the postal code */
                            municipalityNo: string | null;
                            /** @description Mattilsynet's tilsynid */
                            upstreamId: string;
                            /** @description Mattilsynet's tilsynsobjektid (the venue) */
                            venueId: string | null;
                            address: string | null;
                            poststed: string | null;
                            /** @description ordinary or follow-up (oppfølgingstilsyn) */
                            inspectionType: string | null;
                            themes: {
                                number: number;
                                nameNo: string | null;
                                nameNn: string | null;
                                /** @description 0 no breach … 3 serious; 4 not applicable, 5 not assessed */
                                grade: number | null;
                                /** @description false for grade 4 (ikke aktuelt) */
                                applicable: boolean;
                                /** @description true when graded 0–3 */
                                assessed: boolean;
                            }[];
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getLicenses: {
        parameters: {
            query?: {
                /** @description 9-digit Norwegian organisation number */
                orgNumber?: string;
                registerType?: "Alkoholsbevilling" | "Tobakksbevilling";
                /** @description e.g. 01SKJE (on-premise serving), 11ENGR (wholesale), 18TBIM, 19TBEK */
                licenseTypeCode?: string;
                /** @description 4-digit municipality number */
                municipalityNo?: string;
                /** @description true: only licences whose validTo is in the future (no validTo = open-ended = active) */
                activeOnly?: boolean;
                sort?: "validFrom" | "validTo" | "venueName" | "municipality";
                order?: "asc" | "desc";
                /** @description 1–100; values above your tier’s maxPageSize are capped */
                limit?: number;
                /** @description nextCursor of the previous page (same query) */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "4812",
                     *           "licenseNumber": "0301-2024-00153",
                     *           "orgNumber": "912345671",
                     *           "registerType": "Alkoholsbevilling",
                     *           "licenseTypeCode": "01SKJE",
                     *           "licenseTypeDescription": "Skjenkebevilling",
                     *           "venueName": "Kaffebar Grünerløkka",
                     *           "venueOrgNumber": "998877665",
                     *           "productGroups": [
                     *             "Gruppe 1",
                     *             "Gruppe 2"
                     *           ],
                     *           "municipality": "Oslo",
                     *           "municipalityNo": "0301",
                     *           "issuingAuthority": "Oslo kommune",
                     *           "validFrom": "2024-07-01T00:00:00.000Z",
                     *           "validTo": "2028-06-30T00:00:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": "eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8",
                     *       "hasMore": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["License"][];
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getScreeningByOrgNumber: {
        parameters: {
            query?: {
                country?: "NO" | "FI" | "SE" | "DK";
                /** @description Lowest score reported as a possible match (default 0.75; 0.5–1) */
                threshold?: number;
            };
            header?: never;
            path: {
                /** @description NO: 9 digits; FI: NNNNNNN-N; SE: 10 digits; DK: 8 digits (CVR) */
                orgNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "orgNumber": "923609016",
                     *       "country": "NO",
                     *       "companyName": "EKSEMPEL HOLDING AS",
                     *       "screenedAt": "2025-03-01T09:30:00.000Z",
                     *       "threshold": 0.75,
                     *       "algorithm": {
                     *         "name": "ncd-name-matcher",
                     *         "version": "2.3.0"
                     *       },
                     *       "lists": [
                     *         {
                     *           "name": "opensanctions-default",
                     *           "version": "20250301000000-abc",
                     *           "entityCount": 301234,
                     *           "lastSync": "2025-03-01T04:31:12.000Z"
                     *         }
                     *       ],
                     *       "subjects": [
                     *         {
                     *           "id": "company",
                     *           "kind": "company",
                     *           "role": "company",
                     *           "roles": [
                     *             "company"
                     *           ],
                     *           "name": "EKSEMPEL HOLDING AS"
                     *         },
                     *         {
                     *           "id": "p1",
                     *           "kind": "person",
                     *           "role": "role:DAGL",
                     *           "roles": [
                     *             "role:DAGL",
                     *             "shareholder"
                     *           ],
                     *           "name": "Aleksandr Petrov",
                     *           "birthYear": 1968
                     *         },
                     *         {
                     *           "id": "o1",
                     *           "kind": "organisation",
                     *           "role": "shareholder",
                     *           "roles": [
                     *             "shareholder"
                     *           ],
                     *           "name": "NORDISK KAPITAL AS"
                     *         }
                     *       ],
                     *       "matches": [
                     *         {
                     *           "subject": "p1",
                     *           "list": "opensanctions-default",
                     *           "entityId": "NK-example",
                     *           "entityName": "Alexander Ivanovich PETROV",
                     *           "matchedName": "Alexander Ivanovich PETROV",
                     *           "schema": "Person",
                     *           "topics": [
                     *             "sanction"
                     *           ],
                     *           "datasets": [
                     *             "eu_fsf"
                     *           ],
                     *           "score": 0.88,
                     *           "matchType": "fuzzy",
                     *           "explanation": {
                     *             "nameSimilarity": 0.889,
                     *             "tokenOverlap": 0.667,
                     *             "phonetic": 0.667,
                     *             "tokens": [
                     *               {
                     *                 "query": "aleksandr",
                     *                 "candidate": "alexander",
                     *                 "similarity": 1,
                     *                 "how": "spelling"
                     *               },
                     *               {
                     *                 "query": "petrov",
                     *                 "candidate": "petrov",
                     *                 "similarity": 1,
                     *                 "how": "exact"
                     *               }
                     *             ],
                     *             "unmatched": {
                     *               "query": [],
                     *               "candidate": [
                     *                 "ivanovich"
                     *               ]
                     *             },
                     *             "birthYear": "match",
                     *             "country": "unknown",
                     *             "adjustments": [
                     *               {
                     *                 "feature": "birthYear",
                     *                 "delta": 0.08,
                     *                 "reason": "born 1968 as listed"
                     *               }
                     *             ]
                     *           }
                     *         }
                     *       ],
                     *       "summary": {
                     *         "subjectsScreened": 3,
                     *         "possibleMatches": 1,
                     *         "highestScore": 0.88,
                     *         "listsChecked": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        orgNumber: string;
                        /** @enum {string} */
                        country: "NO" | "FI" | "SE" | "DK";
                        companyName: string;
                        /** Format: date-time */
                        screenedAt: string;
                        threshold: number;
                        /** @description The matcher and its version: the same version scores the same input the same way */
                        algorithm: {
                            name: string;
                            version: string;
                        };
                        /** @description Every loaded list, with its version and last successful sync */
                        lists: {
                            name: string;
                            version: string | null;
                            entityCount: number;
                            /** Format: date-time */
                            lastSync: string;
                        }[];
                        /** @description The company, its active roles (auditor and accountant excepted) and the holders of its latest shareholder year */
                        subjects: {
                            /** @description Referenced by matches[].subject */
                            id: string;
                            /** @enum {string} */
                            kind: "company" | "person" | "organisation";
                            /** @description Why the subject is screened: 'company', 'role:<code>' (DAGL, LEDE, MEDL …) or 'shareholder' */
                            role: string;
                            /** @description Every reason, when one person or organisation holds several */
                            roles: string[];
                            name: string;
                            /** @description Persons only, when known; never a full birth date */
                            birthYear?: number;
                        }[];
                        /** @description Possible matches at or above the threshold, best first */
                        matches: {
                            /** @description The id of the screened subject */
                            subject: string;
                            /** @description The list the entity is on */
                            list: string;
                            entityId: string;
                            /** @description Primary name on the list */
                            entityName: string;
                            /** @description The listed name (primary or alias) that matched best */
                            matchedName: string;
                            /** @description Person, Organization, Company or LegalEntity */
                            schema: string;
                            /** @description sanction, role.pep, role.rca, … */
                            topics: string[];
                            datasets: string[];
                            score: number;
                            /** @enum {string} */
                            matchType: "exact" | "alias" | "transliterated" | "phonetic" | "fuzzy";
                            explanation: {
                                /** @description Best name-to-name similarity (0–1) before adjustments; the score is 0.9 × this + adjustments */
                                nameSimilarity: number;
                                /** @description Share of name tokens aligned with a similar token of the other name */
                                tokenOverlap: number;
                                /** @description Share of name tokens whose partner has the same Double Metaphone code */
                                phonetic: number;
                                /** @description The word pairs that drove the name similarity */
                                tokens: {
                                    /** @description Word of the screened name (as transliterated) */
                                    query: string;
                                    /** @description Word of the listed name it was aligned with */
                                    candidate: string;
                                    similarity: number;
                                    /**
                                     * @description exact; spelling = same after spelling folds (ks/x, j/y …); phonetic; initial (V. ~ Vladimir); joined (van der ~ vander); script = same consonant skeleton across scripts that leave vowels out (Arabic, Hebrew …); translated = an organisation word and its Russian/Ukrainian translation (zavod ~ plant) or a place adjective and its place (Muromskiy ~ Murom); fuzzy = partial credit by edit distance
                                     * @enum {string}
                                     */
                                    how: "exact" | "spelling" | "phonetic" | "initial" | "joined" | "script" | "translated" | "fuzzy";
                                }[];
                                /** @description Words without a partner on the other side */
                                unmatched: {
                                    query: string[];
                                    candidate: string[];
                                };
                                /** @enum {string} */
                                birthYear: "match" | "close" | "mismatch" | "unknown";
                                /** @enum {string} */
                                country: "match" | "mismatch" | "unknown";
                                adjustments: {
                                    /** @description birthYear, country, schema, or a name rule: surname, nameOrder, patronymic, legalForm, shortReading (a romanised name too short to tell people apart), derivedWord, substitution; transliteration (delta 0) names the romanisation a cross-script match used, e.g. "Hangul → McCune–Reischauer: kim chong un" */
                                    feature: string;
                                    delta: number;
                                    reason: string;
                                }[];
                            };
                        }[];
                        summary: {
                            subjectsScreened: number;
                            possibleMatches: number;
                            highestScore: number | null;
                            listsChecked: number;
                        };
                        /** @description Set when no list is loaded */
                        message?: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `company_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postScreeningMatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "queries": {
                 *         "q1": {
                 *           "schema": "Person",
                 *           "name": "Vladimir Putin",
                 *           "birthDate": "1952",
                 *           "nationality": "ru"
                 *         },
                 *         "q2": {
                 *           "schema": "Company",
                 *           "name": "Gazprom Neft PJSC"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description 1–100 entities, keyed by your own id (letters, digits, _ . : -) */
                    queries: {
                        [key: string]: {
                            /** @enum {string} */
                            schema: "Person" | "Company" | "Organization";
                            name: string;
                            /** @description YYYY, YYYY-MM or YYYY-MM-DD (persons only); only the year is compared */
                            birthDate?: string;
                            /** @description ISO 3166-1 alpha-2 */
                            nationality?: string;
                            /** @description ISO 3166-1 alpha-2 */
                            country?: string;
                            /** @description Echoed in the response for the record; not compared (the stored lists keep no identifiers) */
                            identifiers?: string[];
                        };
                    };
                    /** @description Score at or above which a result has match: true (default 0.75) */
                    threshold?: number;
                    /** @description Results per query (default 5), best first, each scoring at least 0.5 */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "threshold": 0.75,
                     *       "limit": 5,
                     *       "responses": {
                     *         "q1": {
                     *           "query": {
                     *             "schema": "Person",
                     *             "name": "Aleksandr Petrov",
                     *             "birthDate": "1968"
                     *           },
                     *           "total": 1,
                     *           "matches": 1,
                     *           "results": [
                     *             {
                     *               "id": "NK-example",
                     *               "caption": "Alexander Ivanovich PETROV",
                     *               "schema": "Person",
                     *               "list": "opensanctions-default",
                     *               "listVersion": "20250301000000-abc",
                     *               "datasets": [
                     *                 "eu_fsf"
                     *               ],
                     *               "topics": [
                     *                 "sanction"
                     *               ],
                     *               "score": 0.88,
                     *               "match": true,
                     *               "matchType": "fuzzy",
                     *               "matchedName": "Alexander Ivanovich PETROV",
                     *               "features": {
                     *                 "nameSimilarity": 0.889,
                     *                 "tokenOverlap": 0.667,
                     *                 "phonetic": 0.667,
                     *                 "birthYear": 0.08,
                     *                 "country": 0
                     *               },
                     *               "explanation": {
                     *                 "nameSimilarity": 0.889,
                     *                 "tokenOverlap": 0.667,
                     *                 "phonetic": 0.667,
                     *                 "tokens": [
                     *                   {
                     *                     "query": "aleksandr",
                     *                     "candidate": "alexander",
                     *                     "similarity": 1,
                     *                     "how": "spelling"
                     *                   },
                     *                   {
                     *                     "query": "petrov",
                     *                     "candidate": "petrov",
                     *                     "similarity": 1,
                     *                     "how": "exact"
                     *                   }
                     *                 ],
                     *                 "unmatched": {
                     *                   "query": [],
                     *                   "candidate": [
                     *                     "ivanovich"
                     *                   ]
                     *                 },
                     *                 "birthYear": "match",
                     *                 "country": "unknown",
                     *                 "adjustments": [
                     *                   {
                     *                     "feature": "birthYear",
                     *                     "delta": 0.08,
                     *                     "reason": "born 1968 as listed"
                     *                   }
                     *                 ]
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       },
                     *       "screenedAt": "2025-03-01T09:30:00.000Z",
                     *       "algorithm": {
                     *         "name": "ncd-name-matcher",
                     *         "version": "2.3.0"
                     *       },
                     *       "lists": [
                     *         {
                     *           "name": "opensanctions-default",
                     *           "version": "20250301000000-abc",
                     *           "entityCount": 301234,
                     *           "lastSync": "2025-03-01T04:31:12.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        threshold: number;
                        limit: number;
                        responses: {
                            [key: string]: {
                                query: {
                                    /** @enum {string} */
                                    schema: "Person" | "Company" | "Organization";
                                    name: string;
                                    /** @description YYYY, YYYY-MM or YYYY-MM-DD (persons only); only the year is compared */
                                    birthDate?: string;
                                    /** @description ISO 3166-1 alpha-2 */
                                    nationality?: string;
                                    /** @description ISO 3166-1 alpha-2 */
                                    country?: string;
                                    /** @description Echoed in the response for the record; not compared (the stored lists keep no identifiers) */
                                    identifiers?: string[];
                                };
                                /** @description Candidates scoring at least the lower bound */
                                total: number;
                                /** @description Results with match: true */
                                matches: number;
                                results: {
                                    id: string;
                                    /** @description Primary name on the list */
                                    caption: string;
                                    schema: string;
                                    list: string;
                                    listVersion: string | null;
                                    datasets: string[];
                                    topics: string[];
                                    score: number;
                                    /** @description score ≥ threshold: a possible match for a person to review */
                                    match: boolean;
                                    /** @enum {string} */
                                    matchType: "exact" | "alias" | "transliterated" | "phonetic" | "fuzzy";
                                    matchedName: string;
                                    features: {
                                        nameSimilarity: number;
                                        tokenOverlap: number;
                                        phonetic: number;
                                        /** @description Score change from the birth year */
                                        birthYear: number;
                                        /** @description Score change from the countries */
                                        country: number;
                                    };
                                    explanation: {
                                        /** @description Best name-to-name similarity (0–1) before adjustments; the score is 0.9 × this + adjustments */
                                        nameSimilarity: number;
                                        /** @description Share of name tokens aligned with a similar token of the other name */
                                        tokenOverlap: number;
                                        /** @description Share of name tokens whose partner has the same Double Metaphone code */
                                        phonetic: number;
                                        /** @description The word pairs that drove the name similarity */
                                        tokens: {
                                            /** @description Word of the screened name (as transliterated) */
                                            query: string;
                                            /** @description Word of the listed name it was aligned with */
                                            candidate: string;
                                            similarity: number;
                                            /**
                                             * @description exact; spelling = same after spelling folds (ks/x, j/y …); phonetic; initial (V. ~ Vladimir); joined (van der ~ vander); script = same consonant skeleton across scripts that leave vowels out (Arabic, Hebrew …); translated = an organisation word and its Russian/Ukrainian translation (zavod ~ plant) or a place adjective and its place (Muromskiy ~ Murom); fuzzy = partial credit by edit distance
                                             * @enum {string}
                                             */
                                            how: "exact" | "spelling" | "phonetic" | "initial" | "joined" | "script" | "translated" | "fuzzy";
                                        }[];
                                        /** @description Words without a partner on the other side */
                                        unmatched: {
                                            query: string[];
                                            candidate: string[];
                                        };
                                        /** @enum {string} */
                                        birthYear: "match" | "close" | "mismatch" | "unknown";
                                        /** @enum {string} */
                                        country: "match" | "mismatch" | "unknown";
                                        adjustments: {
                                            /** @description birthYear, country, schema, or a name rule: surname, nameOrder, patronymic, legalForm, shortReading (a romanised name too short to tell people apart), derivedWord, substitution; transliteration (delta 0) names the romanisation a cross-script match used, e.g. "Hangul → McCune–Reischauer: kim chong un" */
                                            feature: string;
                                            delta: number;
                                            reason: string;
                                        }[];
                                    };
                                }[];
                            };
                        };
                        /** Format: date-time */
                        screenedAt: string;
                        /** @description The matcher and its version: the same version scores the same input the same way */
                        algorithm: {
                            name: string;
                            version: string;
                        };
                        /** @description Every loaded list, with its version and last successful sync */
                        lists: {
                            name: string;
                            version: string | null;
                            entityCount: number;
                            /** Format: date-time */
                            lastSync: string;
                        }[];
                        /** @description Set when no list is loaded */
                        message?: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getScreeningAudit: {
        parameters: {
            query?: {
                /** @description Records at or after this time */
                from?: string;
                /** @description Records before this time */
                to?: string;
                /** @description 1–100; values above your tier’s maxPageSize are capped */
                limit?: number;
                /** @description nextCursor of the previous page (same query) */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 42,
                     *           "at": "2026-04-20T12:34:56.000Z",
                     *           "keyPrefix": "ncd_EXAMPLEk",
                     *           "via": "rest",
                     *           "operation": "company",
                     *           "subject": {
                     *             "orgNumber": "923609016",
                     *             "country": "NO",
                     *             "subjects": 3
                     *           },
                     *           "lists": [
                     *             {
                     *               "name": "opensanctions-default",
                     *               "version": "20261128000000-abc",
                     *               "entityCount": 301234,
                     *               "lastSync": "2026-04-20T12:34:56.000Z"
                     *             }
                     *           ],
                     *           "threshold": 0.7,
                     *           "algorithm": "ncd-screen-2.3.0",
                     *           "matchCount": 0,
                     *           "matches": []
                     *         }
                     *       ],
                     *       "nextCursor": "eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8",
                     *       "hasMore": true
                     *     }
                     */
                    "application/json": {
                        data: {
                            id: number;
                            /** Format: date-time */
                            at: string;
                            keyPrefix: string;
                            /** @enum {string} */
                            via: "rest" | "mcp" | "evidence";
                            /** @enum {string} */
                            operation: "company" | "match";
                            /** @description The company (with its screened subjects) or the queries */
                            subject: {
                                [key: string]: unknown;
                            };
                            lists: {
                                name: string;
                                version: string | null;
                                entityCount: number;
                                /** Format: date-time */
                                lastSync: string;
                            }[];
                            threshold: number;
                            algorithm: string;
                            matchCount: number;
                            matches: {
                                [key: string]: unknown;
                            }[];
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postCompaniesByOrgNumberEvidence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description NO: 9 digits; FI: NNNNNNN-N; SE: 10 digits; DK: 8 digits */
                orgNumber: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "country": "NO",
                 *       "purpose": "onboarding",
                 *       "reference": "CASE-2026-17"
                 *     }
                 */
                "application/json": {
                    /**
                     * @default NO
                     * @enum {string}
                     */
                    country?: "NO" | "FI" | "SE" | "DK";
                    /** @description Why the review is made (e.g. "onboarding") */
                    purpose?: string;
                    /** @description The analyst's case number */
                    reference?: string;
                };
            };
        };
        responses: {
            /** @description One signed pack: canonical JSON (RFC 8785) served byte for byte as signed. Every part says its source, upstream URL or file and retrieval time. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "format": "ncd-evidence-pack/1",
                     *       "id": "ev_5f1c2b7e0d1a4f579d3e7b3a",
                     *       "createdAt": "2026-04-20T12:34:56.000Z",
                     *       "subject": {
                     *         "orgNumber": "923609016",
                     *         "country": "NO",
                     *         "name": "EQUINOR ASA"
                     *       },
                     *       "purpose": "onboarding",
                     *       "reference": "CASE-2026-17",
                     *       "requester": {
                     *         "keyPrefix": "ncd_EXAMPLEk",
                     *         "project": "Acme KYC",
                     *         "via": "rest"
                     *       },
                     *       "software": {
                     *         "name": "nordic-company-data",
                     *         "version": "0.4.0"
                     *       },
                     *       "verdict": {
                     *         "registryStatus": "active (live from the registry)",
                     *         "screening": "1 possible match on 1 list",
                     *         "owners": "2 ultimate-owner candidates",
                     *         "possibleMatches": 1,
                     *         "ownerCandidates": 2
                     *       },
                     *       "parts": {
                     *         "company": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": "https://data.brreg.no/enhetsregisteret/api/enheter/923609016",
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "roles": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "shareholders": {
                     *           "source": "Aksjonærregisteret",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "ultimateOwners": {
                     *           "source": "derived from the shareholder register",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "group": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "screening": {
                     *           "source": "opensanctions-default",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "registryStatus": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": "https://data.brreg.no/enhetsregisteret/api/enheter/923609016",
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         }
                     *       },
                     *       "sources": [
                     *         {
                     *           "part": "company",
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z"
                     *         }
                     *       ],
                     *       "retention": {
                     *         "days": 3650,
                     *         "until": "2036-04-17T12:34:56.000Z"
                     *       },
                     *       "verification": {
                     *         "jwks": "/.well-known/jwks.json"
                     *       },
                     *       "hash": {
                     *         "alg": "sha-256",
                     *         "value": "9f2c4be1d0a3f6e58b7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6"
                     *       },
                     *       "signature": {
                     *         "alg": "Ed25519",
                     *         "kid": "q1TnCuE8gJ4kZp3v5wQy7bXr2Lm9sDf0hAoIeUtYcRk",
                     *         "value": "u9J3X0Zb7q2mS1v8Wc4Ry6Tn5Lk0Pd9Fh3Ga2Ej7Qw1Xs8Zc4Vb6Nm0Kl5Hj2Gf"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        format: "ncd-evidence-pack/1";
                        id: string;
                        /** Format: date-time */
                        createdAt: string;
                        subject: {
                            orgNumber: string;
                            country: string;
                            name: string;
                        };
                        purpose: string | null;
                        reference: string | null;
                        requester: {
                            keyPrefix: string;
                            project: string;
                            /** @enum {string} */
                            via: "rest" | "mcp";
                        };
                        software: {
                            name: string;
                            version: string;
                        };
                        verdict: {
                            registryStatus: string;
                            screening: string;
                            owners: string;
                            possibleMatches: number;
                            ownerCandidates: number;
                        };
                        parts: {
                            company: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            roles: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            shareholders: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            ultimateOwners: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            group: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            screening: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            registryStatus: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        sources: {
                            part: string;
                            source: string;
                            url: string | null;
                            retrievedAt: string | null;
                        }[];
                        retention: {
                            days: number;
                            /** Format: date-time */
                            until: string;
                        };
                        verification: {
                            [key: string]: unknown;
                        };
                        hash: {
                            /** @enum {string} */
                            alg: "sha-256";
                            value: string;
                        };
                        signature: {
                            /** @enum {string} */
                            alg: "Ed25519";
                            /** @description RFC 7638 thumbprint of the public key (see /.well-known/jwks.json) */
                            kid: string;
                            /** @description Ed25519 signature, base64url, over the RFC 8785 bytes of the pack without hash and signature */
                            value: string;
                        };
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `company_not_found`, `evidence_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `evidence_pack_limit`, `live_fetch_budget_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getEvidence: {
        parameters: {
            query?: {
                orgNumber?: string;
                /** @description Packs created at or after this time */
                from?: string;
                /** @description Packs created before this time */
                to?: string;
                /** @description 1–100; values above your tier’s maxPageSize are capped */
                limit?: number;
                /** @description nextCursor of the previous page (same query) */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "ev_5f1c2b7e0d1a4f579d3e7b3a",
                     *           "createdAt": "2026-04-20T12:34:56.000Z",
                     *           "orgNumber": "923609016",
                     *           "country": "NO",
                     *           "reference": "CASE-2026-17",
                     *           "purpose": "onboarding",
                     *           "keyPrefix": "ncd_EXAMPLEk",
                     *           "hash": {
                     *             "alg": "sha-256",
                     *             "value": "9f2c4be1d0a3f6e58b7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6"
                     *           },
                     *           "kid": "q1TnCuE8gJ4kZp3v5wQy7bXr2Lm9sDf0hAoIeUtYcRk",
                     *           "expiresAt": "2036-04-17T12:34:56.000Z",
                     *           "verdict": {
                     *             "registryStatus": "active (live from the registry)",
                     *             "screening": "1 possible match on 1 list",
                     *             "owners": "2 ultimate-owner candidates",
                     *             "possibleMatches": 1,
                     *             "ownerCandidates": 2
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": "eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8",
                     *       "hasMore": true
                     *     }
                     */
                    "application/json": {
                        data: {
                            id: string;
                            /** Format: date-time */
                            createdAt: string;
                            orgNumber: string;
                            country: string;
                            reference: string | null;
                            purpose: string | null;
                            keyPrefix: string;
                            hash: {
                                /** @enum {string} */
                                alg: "sha-256";
                                value: string;
                            };
                            kid: string;
                            /** Format: date-time */
                            expiresAt: string;
                            verdict: {
                                registryStatus: string;
                                screening: string;
                                owners: string;
                                possibleMatches: number;
                                ownerCandidates: number;
                            };
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `evidence_pack_limit`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getEvidenceById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The pack id (ev_ + 24 hex digits); add .pdf for the PDF */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One signed pack: canonical JSON (RFC 8785) served byte for byte as signed. Every part says its source, upstream URL or file and retrieval time. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "format": "ncd-evidence-pack/1",
                     *       "id": "ev_5f1c2b7e0d1a4f579d3e7b3a",
                     *       "createdAt": "2026-04-20T12:34:56.000Z",
                     *       "subject": {
                     *         "orgNumber": "923609016",
                     *         "country": "NO",
                     *         "name": "EQUINOR ASA"
                     *       },
                     *       "purpose": "onboarding",
                     *       "reference": "CASE-2026-17",
                     *       "requester": {
                     *         "keyPrefix": "ncd_EXAMPLEk",
                     *         "project": "Acme KYC",
                     *         "via": "rest"
                     *       },
                     *       "software": {
                     *         "name": "nordic-company-data",
                     *         "version": "0.4.0"
                     *       },
                     *       "verdict": {
                     *         "registryStatus": "active (live from the registry)",
                     *         "screening": "1 possible match on 1 list",
                     *         "owners": "2 ultimate-owner candidates",
                     *         "possibleMatches": 1,
                     *         "ownerCandidates": 2
                     *       },
                     *       "parts": {
                     *         "company": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": "https://data.brreg.no/enhetsregisteret/api/enheter/923609016",
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "roles": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "shareholders": {
                     *           "source": "Aksjonærregisteret",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "ultimateOwners": {
                     *           "source": "derived from the shareholder register",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "group": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "screening": {
                     *           "source": "opensanctions-default",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "registryStatus": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": "https://data.brreg.no/enhetsregisteret/api/enheter/923609016",
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         }
                     *       },
                     *       "sources": [
                     *         {
                     *           "part": "company",
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z"
                     *         }
                     *       ],
                     *       "retention": {
                     *         "days": 3650,
                     *         "until": "2036-04-17T12:34:56.000Z"
                     *       },
                     *       "verification": {
                     *         "jwks": "/.well-known/jwks.json"
                     *       },
                     *       "hash": {
                     *         "alg": "sha-256",
                     *         "value": "9f2c4be1d0a3f6e58b7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6"
                     *       },
                     *       "signature": {
                     *         "alg": "Ed25519",
                     *         "kid": "q1TnCuE8gJ4kZp3v5wQy7bXr2Lm9sDf0hAoIeUtYcRk",
                     *         "value": "u9J3X0Zb7q2mS1v8Wc4Ry6Tn5Lk0Pd9Fh3Ga2Ej7Qw1Xs8Zc4Vb6Nm0Kl5Hj2Gf"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        format: "ncd-evidence-pack/1";
                        id: string;
                        /** Format: date-time */
                        createdAt: string;
                        subject: {
                            orgNumber: string;
                            country: string;
                            name: string;
                        };
                        purpose: string | null;
                        reference: string | null;
                        requester: {
                            keyPrefix: string;
                            project: string;
                            /** @enum {string} */
                            via: "rest" | "mcp";
                        };
                        software: {
                            name: string;
                            version: string;
                        };
                        verdict: {
                            registryStatus: string;
                            screening: string;
                            owners: string;
                            possibleMatches: number;
                            ownerCandidates: number;
                        };
                        parts: {
                            company: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            roles: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            shareholders: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            ultimateOwners: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            group: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            screening: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            registryStatus: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        sources: {
                            part: string;
                            source: string;
                            url: string | null;
                            retrievedAt: string | null;
                        }[];
                        retention: {
                            days: number;
                            /** Format: date-time */
                            until: string;
                        };
                        verification: {
                            [key: string]: unknown;
                        };
                        hash: {
                            /** @enum {string} */
                            alg: "sha-256";
                            value: string;
                        };
                        signature: {
                            /** @enum {string} */
                            alg: "Ed25519";
                            /** @description RFC 7638 thumbprint of the public key (see /.well-known/jwks.json) */
                            kid: string;
                            /** @description Ed25519 signature, base64url, over the RFC 8785 bytes of the pack without hash and signature */
                            value: string;
                        };
                    };
                    /**
                     * @example {
                     *       "format": "ncd-evidence-pack/1",
                     *       "id": "ev_5f1c2b7e0d1a4f579d3e7b3a",
                     *       "createdAt": "2026-04-20T12:34:56.000Z",
                     *       "subject": {
                     *         "orgNumber": "923609016",
                     *         "country": "NO",
                     *         "name": "EQUINOR ASA"
                     *       },
                     *       "purpose": "onboarding",
                     *       "reference": "CASE-2026-17",
                     *       "requester": {
                     *         "keyPrefix": "ncd_EXAMPLEk",
                     *         "project": "Acme KYC",
                     *         "via": "rest"
                     *       },
                     *       "software": {
                     *         "name": "nordic-company-data",
                     *         "version": "0.4.0"
                     *       },
                     *       "verdict": {
                     *         "registryStatus": "active (live from the registry)",
                     *         "screening": "1 possible match on 1 list",
                     *         "owners": "2 ultimate-owner candidates",
                     *         "possibleMatches": 1,
                     *         "ownerCandidates": 2
                     *       },
                     *       "parts": {
                     *         "company": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": "https://data.brreg.no/enhetsregisteret/api/enheter/923609016",
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "roles": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "shareholders": {
                     *           "source": "Aksjonærregisteret",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "ultimateOwners": {
                     *           "source": "derived from the shareholder register",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "group": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "screening": {
                     *           "source": "opensanctions-default",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         },
                     *         "registryStatus": {
                     *           "source": "Brønnøysundregistrene",
                     *           "url": "https://data.brreg.no/enhetsregisteret/api/enheter/923609016",
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z",
                     *           "data": {}
                     *         }
                     *       },
                     *       "sources": [
                     *         {
                     *           "part": "company",
                     *           "source": "Brønnøysundregistrene",
                     *           "url": null,
                     *           "retrievedAt": "2026-04-20T12:34:56.000Z"
                     *         }
                     *       ],
                     *       "retention": {
                     *         "days": 3650,
                     *         "until": "2036-04-17T12:34:56.000Z"
                     *       },
                     *       "verification": {
                     *         "jwks": "/.well-known/jwks.json"
                     *       },
                     *       "hash": {
                     *         "alg": "sha-256",
                     *         "value": "9f2c4be1d0a3f6e58b7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6"
                     *       },
                     *       "signature": {
                     *         "alg": "Ed25519",
                     *         "kid": "q1TnCuE8gJ4kZp3v5wQy7bXr2Lm9sDf0hAoIeUtYcRk",
                     *         "value": "u9J3X0Zb7q2mS1v8Wc4Ry6Tn5Lk0Pd9Fh3Ga2Ej7Qw1Xs8Zc4Vb6Nm0Kl5Hj2Gf"
                     *       }
                     *     }
                     */
                    "application/pdf": {
                        /** @enum {string} */
                        format: "ncd-evidence-pack/1";
                        id: string;
                        /** Format: date-time */
                        createdAt: string;
                        subject: {
                            orgNumber: string;
                            country: string;
                            name: string;
                        };
                        purpose: string | null;
                        reference: string | null;
                        requester: {
                            keyPrefix: string;
                            project: string;
                            /** @enum {string} */
                            via: "rest" | "mcp";
                        };
                        software: {
                            name: string;
                            version: string;
                        };
                        verdict: {
                            registryStatus: string;
                            screening: string;
                            owners: string;
                            possibleMatches: number;
                            ownerCandidates: number;
                        };
                        parts: {
                            company: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            roles: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            shareholders: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            ultimateOwners: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            group: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            screening: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            registryStatus: {
                                source: string;
                                url: string | null;
                                retrievedAt: string | null;
                                data: unknown;
                                note?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        sources: {
                            part: string;
                            source: string;
                            url: string | null;
                            retrievedAt: string | null;
                        }[];
                        retention: {
                            days: number;
                            /** Format: date-time */
                            until: string;
                        };
                        verification: {
                            [key: string]: unknown;
                        };
                        hash: {
                            /** @enum {string} */
                            alg: "sha-256";
                            value: string;
                        };
                        signature: {
                            /** @enum {string} */
                            alg: "Ed25519";
                            /** @description RFC 7638 thumbprint of the public key (see /.well-known/jwks.json) */
                            kid: string;
                            /** @description Ed25519 signature, base64url, over the RFC 8785 bytes of the pack without hash and signature */
                            value: string;
                        };
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `evidence_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `evidence_pack_limit`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWellKnownJwksJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "keys": [
                     *         {
                     *           "kty": "OKP",
                     *           "crv": "Ed25519",
                     *           "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
                     *           "kid": "q1TnCuE8gJ4kZp3v5wQy7bXr2Lm9sDf0hAoIeUtYcRk",
                     *           "alg": "EdDSA",
                     *           "use": "sig"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        keys: {
                            /** @enum {string} */
                            kty: "OKP";
                            /** @enum {string} */
                            crv: "Ed25519";
                            x: string;
                            kid: string;
                            /** @enum {string} */
                            alg: "EdDSA";
                            /** @enum {string} */
                            use: "sig";
                        }[];
                    };
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCoverage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "snapshotAt": "2026-05-20T02:00:03.120Z",
                     *       "countries": [
                     *         "FI",
                     *         "NO",
                     *         "SE"
                     *       ],
                     *       "categories": [
                     *         "companies",
                     *         "financials",
                     *         "roles",
                     *         "subUnits",
                     *         "shareholders",
                     *         "licenses",
                     *         "inspections",
                     *         "domains",
                     *         "technologies",
                     *         "screeningLists",
                     *         "procurement"
                     *       ],
                     *       "rows": [
                     *         {
                     *           "country": "NO",
                     *           "category": "companies",
                     *           "records": 1162000,
                     *           "companiesWith": 1162000,
                     *           "share": 1,
                     *           "lastSync": "2026-05-20T01:45:09.000Z",
                     *           "cadence": [
                     *             {
                     *               "job": "brreg-updates",
                     *               "cron": "*\/15 * * * *"
                     *             },
                     *             {
                     *               "job": "brreg",
                     *               "cron": "0 3 1 * *"
                     *             }
                     *           ],
                     *           "sources": [
                     *             "brreg-updates",
                     *             "brreg-snapshot"
                     *           ]
                     *         },
                     *         {
                     *           "country": "NO",
                     *           "category": "financials",
                     *           "records": 2410331,
                     *           "companiesWith": 402118,
                     *           "share": 0.3461,
                     *           "lastSync": "2026-05-18T04:12:40.000Z",
                     *           "cadence": [],
                     *           "sources": [
                     *             "regnskap"
                     *           ]
                     *         },
                     *         {
                     *           "country": "SE",
                     *           "category": "shareholders",
                     *           "records": 0,
                     *           "companiesWith": 0,
                     *           "share": 0,
                     *           "lastSync": null,
                     *           "cadence": [],
                     *           "sources": []
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        snapshotAt: string | null;
                        countries: string[];
                        categories: string[];
                        /** @description One row per country and category */
                        rows: {
                            /** @description ISO 3166-1 alpha-2 country code */
                            country: string;
                            /** @enum {string} */
                            category: "companies" | "financials" | "roles" | "subUnits" | "shareholders" | "licenses" | "inspections" | "domains" | "technologies" | "screeningLists" | "procurement";
                            /** @description Rows stored in this category for the country (technologies: detections; screeningLists: listed entities, shared by every country) */
                            records: number;
                            companiesWith: number | null;
                            share: number | null;
                            lastSync: string | null;
                            /** @description Schedules of the jobs that keep the category fresh on this server (empty: on demand only) */
                            cadence: {
                                job: string;
                                /** @description UTC cron expression */
                                cron: string;
                            }[];
                            /** @description Data-source names (as in /api/health dataSources) feeding the category */
                            sources: string[];
                        }[];
                    };
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getMarketContext: {
        parameters: {
            query?: {
                country?: "NO" | "SE" | "FI" | "DK";
                /**
                 * @description NO/SE 4 digits, FI/DK 3 digits
                 * @example 0301
                 */
                municipality?: string;
                /**
                 * @description NACE code or division
                 * @example 47.1
                 */
                nace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Market context of a municipality and a NACE division */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "country": "NO",
                     *       "municipality": {
                     *         "code": "0301",
                     *         "name": "Oslo",
                     *         "countyCode": "03",
                     *         "countyName": "Oslo",
                     *         "population": {
                     *           "value": 724290,
                     *           "unit": "persons",
                     *           "year": 2025,
                     *           "source": "SSB",
                     *           "table": "07459",
                     *           "level": "municipality",
                     *           "label": null,
                     *           "licence": "CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)"
                     *         },
                     *         "householdIncome": {
                     *           "value": 565000,
                     *           "unit": "NOK",
                     *           "year": 2023,
                     *           "source": "SSB",
                     *           "table": "06944",
                     *           "level": "municipality",
                     *           "label": null,
                     *           "licence": "CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)"
                     *         },
                     *         "enterprises": {
                     *           "value": 105876,
                     *           "unit": "establishments",
                     *           "year": 2025,
                     *           "source": "SSB",
                     *           "table": "07091",
                     *           "level": "municipality",
                     *           "label": null,
                     *           "licence": "CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)"
                     *         },
                     *         "enterprisesPer1000": {
                     *           "value": 146.18,
                     *           "unit": "establishments per 1,000 inhabitants",
                     *           "year": 2025,
                     *           "source": "SSB",
                     *           "table": "07091+07459",
                     *           "level": "municipality",
                     *           "label": null,
                     *           "licence": "CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)",
                     *           "computed": true
                     *         }
                     *       },
                     *       "industry": {
                     *         "naceDivision": "47",
                     *         "averageMonthlyWage": {
                     *           "value": 41460,
                     *           "unit": "NOK per month",
                     *           "year": 2025,
                     *           "source": "SSB",
                     *           "table": "11419",
                     *           "level": "division",
                     *           "label": "Retail trade, except of motor vehicles and motorcycles",
                     *           "licence": "CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)"
                     *         },
                     *         "enterprises": {
                     *           "value": 29876,
                     *           "unit": "enterprises",
                     *           "year": 2025,
                     *           "source": "SSB",
                     *           "table": "12817",
                     *           "level": "section",
                     *           "label": "Wholesale and retail trade; repair of motor vehicles and motorcycles",
                     *           "licence": "CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)"
                     *         },
                     *         "startupSurvivalRate": {
                     *           "unavailable": true,
                     *           "reason": "SSB publishes startup survival by section (næringshovedområde) only, and no current table of it was found",
                     *           "source": "SSB",
                     *           "table": null
                     *         }
                     *       },
                     *       "tables": [
                     *         {
                     *           "source": "SSB",
                     *           "scope": "municipality",
                     *           "measure": "population",
                     *           "table": "07459",
                     *           "title": "Population, by region (1 January)",
                     *           "unit": "persons",
                     *           "year": 2025,
                     *           "licence": "CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)",
                     *           "url": "https://data.ssb.no/api/v0/no/table/07459/",
                     *           "fetchedAt": "2026-11-03T05:00:12.000Z"
                     *         }
                     *       ],
                     *       "_sources": {
                     *         "attribution": [
                     *           "SSB"
                     *         ],
                     *         "licences": [
                     *           {
                     *             "source": "SSB",
                     *             "licence": "CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        country: string;
                        municipality: {
                            code: string;
                            name: string | null;
                            countyCode: string | null;
                            countyName: string | null;
                            /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                            population: {
                                value: number;
                                /** @description e.g. persons, NOK, EUR per month, percent */
                                unit: string;
                                /** @description Reference year of the figure */
                                year: number;
                                /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                                source: string;
                                /** @description The bureau's table id (two for a computed figure, joined with +) */
                                table: string;
                                /**
                                 * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                                 * @enum {string}
                                 */
                                level: "municipality" | "division" | "section" | "grouping";
                                /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                                label: string | null;
                                /** @description The bureau's licence of the figure */
                                licence: string;
                                /** @description Startup survival: the year the firms started */
                                cohort?: number;
                                /** @description true: computed by us from the tables named */
                                computed?: boolean;
                            } | {
                                /** @enum {boolean} */
                                unavailable: true;
                                /** @description Why the bureau has no figure for this measure at this level */
                                reason: string;
                                source: string;
                                /** @description The table that was checked, if any */
                                table: string | null;
                            } | null;
                            /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                            householdIncome: {
                                value: number;
                                /** @description e.g. persons, NOK, EUR per month, percent */
                                unit: string;
                                /** @description Reference year of the figure */
                                year: number;
                                /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                                source: string;
                                /** @description The bureau's table id (two for a computed figure, joined with +) */
                                table: string;
                                /**
                                 * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                                 * @enum {string}
                                 */
                                level: "municipality" | "division" | "section" | "grouping";
                                /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                                label: string | null;
                                /** @description The bureau's licence of the figure */
                                licence: string;
                                /** @description Startup survival: the year the firms started */
                                cohort?: number;
                                /** @description true: computed by us from the tables named */
                                computed?: boolean;
                            } | {
                                /** @enum {boolean} */
                                unavailable: true;
                                /** @description Why the bureau has no figure for this measure at this level */
                                reason: string;
                                source: string;
                                /** @description The table that was checked, if any */
                                table: string | null;
                            } | null;
                            /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                            enterprises: {
                                value: number;
                                /** @description e.g. persons, NOK, EUR per month, percent */
                                unit: string;
                                /** @description Reference year of the figure */
                                year: number;
                                /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                                source: string;
                                /** @description The bureau's table id (two for a computed figure, joined with +) */
                                table: string;
                                /**
                                 * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                                 * @enum {string}
                                 */
                                level: "municipality" | "division" | "section" | "grouping";
                                /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                                label: string | null;
                                /** @description The bureau's licence of the figure */
                                licence: string;
                                /** @description Startup survival: the year the firms started */
                                cohort?: number;
                                /** @description true: computed by us from the tables named */
                                computed?: boolean;
                            } | {
                                /** @enum {boolean} */
                                unavailable: true;
                                /** @description Why the bureau has no figure for this measure at this level */
                                reason: string;
                                source: string;
                                /** @description The table that was checked, if any */
                                table: string | null;
                            } | null;
                            /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                            enterprisesPer1000: {
                                value: number;
                                /** @description e.g. persons, NOK, EUR per month, percent */
                                unit: string;
                                /** @description Reference year of the figure */
                                year: number;
                                /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                                source: string;
                                /** @description The bureau's table id (two for a computed figure, joined with +) */
                                table: string;
                                /**
                                 * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                                 * @enum {string}
                                 */
                                level: "municipality" | "division" | "section" | "grouping";
                                /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                                label: string | null;
                                /** @description The bureau's licence of the figure */
                                licence: string;
                                /** @description Startup survival: the year the firms started */
                                cohort?: number;
                                /** @description true: computed by us from the tables named */
                                computed?: boolean;
                            } | {
                                /** @enum {boolean} */
                                unavailable: true;
                                /** @description Why the bureau has no figure for this measure at this level */
                                reason: string;
                                source: string;
                                /** @description The table that was checked, if any */
                                table: string | null;
                            } | null;
                        } | null;
                        industry: {
                            naceDivision: string;
                            /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                            averageMonthlyWage: {
                                value: number;
                                /** @description e.g. persons, NOK, EUR per month, percent */
                                unit: string;
                                /** @description Reference year of the figure */
                                year: number;
                                /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                                source: string;
                                /** @description The bureau's table id (two for a computed figure, joined with +) */
                                table: string;
                                /**
                                 * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                                 * @enum {string}
                                 */
                                level: "municipality" | "division" | "section" | "grouping";
                                /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                                label: string | null;
                                /** @description The bureau's licence of the figure */
                                licence: string;
                                /** @description Startup survival: the year the firms started */
                                cohort?: number;
                                /** @description true: computed by us from the tables named */
                                computed?: boolean;
                            } | {
                                /** @enum {boolean} */
                                unavailable: true;
                                /** @description Why the bureau has no figure for this measure at this level */
                                reason: string;
                                source: string;
                                /** @description The table that was checked, if any */
                                table: string | null;
                            } | null;
                            /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                            enterprises: {
                                value: number;
                                /** @description e.g. persons, NOK, EUR per month, percent */
                                unit: string;
                                /** @description Reference year of the figure */
                                year: number;
                                /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                                source: string;
                                /** @description The bureau's table id (two for a computed figure, joined with +) */
                                table: string;
                                /**
                                 * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                                 * @enum {string}
                                 */
                                level: "municipality" | "division" | "section" | "grouping";
                                /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                                label: string | null;
                                /** @description The bureau's licence of the figure */
                                licence: string;
                                /** @description Startup survival: the year the firms started */
                                cohort?: number;
                                /** @description true: computed by us from the tables named */
                                computed?: boolean;
                            } | {
                                /** @enum {boolean} */
                                unavailable: true;
                                /** @description Why the bureau has no figure for this measure at this level */
                                reason: string;
                                source: string;
                                /** @description The table that was checked, if any */
                                table: string | null;
                            } | null;
                            /** @description The figure, why it is unavailable, or null (no figure stored for this municipality or industry) */
                            startupSurvivalRate: {
                                value: number;
                                /** @description e.g. persons, NOK, EUR per month, percent */
                                unit: string;
                                /** @description Reference year of the figure */
                                year: number;
                                /** @description The bureau: SSB, SCB, Statistics Finland or Statistics Denmark */
                                source: string;
                                /** @description The bureau's table id (two for a computed figure, joined with +) */
                                table: string;
                                /**
                                 * @description What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's
                                 * @enum {string}
                                 */
                                level: "municipality" | "division" | "section" | "grouping";
                                /** @description The bureau's name of the division, section or grouping the figure is of (null for a municipality) */
                                label: string | null;
                                /** @description The bureau's licence of the figure */
                                licence: string;
                                /** @description Startup survival: the year the firms started */
                                cohort?: number;
                                /** @description true: computed by us from the tables named */
                                computed?: boolean;
                            } | {
                                /** @enum {boolean} */
                                unavailable: true;
                                /** @description Why the bureau has no figure for this measure at this level */
                                reason: string;
                                source: string;
                                /** @description The table that was checked, if any */
                                table: string | null;
                            } | null;
                        } | null;
                        tables: {
                            source: string;
                            scope: "municipality" | "industry";
                            measure: string;
                            table: string;
                            title: string;
                            unit: string;
                            year: number;
                            licence: string;
                            url: string;
                            /** @description Vintage: when the figures were fetched */
                            fetchedAt: string;
                        }[];
                        _sources: {
                            attribution: string[];
                            /** @description Each bureau's licence of its figures */
                            licences: {
                                source: string;
                                licence: string;
                            }[];
                        };
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description One JSON-RPC 2.0 message (batches are not accepted) */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "jsonrpc": "2.0",
                 *       "id": 2,
                 *       "method": "tools/call",
                 *       "params": {
                 *         "name": "lookup_company",
                 *         "arguments": {
                 *           "orgNumber": "923609016",
                 *           "country": "NO"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    id?: string | number;
                    /** @description initialize, notifications/initialized, tools/list, tools/call, ping */
                    method?: string;
                    params?: {
                        [key: string]: unknown;
                    };
                    result?: unknown;
                    error?: unknown;
                };
            };
        };
        responses: {
            /** @description The JSON-RPC response (application/json) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jsonrpc": "2.0",
                     *       "id": 2,
                     *       "result": {
                     *         "content": [
                     *           {
                     *             "type": "text",
                     *             "text": "{\"orgNumber\":\"923609016\",\"country\":\"NO\",\"name\":\"EQUINOR ASA\", …}"
                     *           }
                     *         ],
                     *         "structuredContent": {
                     *           "orgNumber": "923609016",
                     *           "country": "NO",
                     *           "name": "EQUINOR ASA",
                     *           "orgFormCode": "ASA",
                     *           "employeeCount": 21408
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        result?: unknown;
                        error?: {
                            code: number;
                            message: string;
                            data?: unknown;
                        };
                    };
                };
            };
            /** @description Accepted: the message was a notification or a response */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported media type: `unsupported_media_type`. See /errors */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getProcurement: {
        parameters: {
            query?: {
                /** @description 9-digit Norwegian organisation number */
                orgNumber?: string;
                /** @description With orgNumber: the company as buyer or as a winner (default: either) */
                role?: "buyer" | "winner";
                status?: "ACTIVE" | "CLOSED" | "AWARDED" | "CANCELLED";
                /** @description A CPV code or its prefix (2–8 digits), e.g. 909 or 90911200 */
                cpv?: string;
                /** @description Notices whose tender deadline is after this date or instant (ISO) */
                deadlineAfter?: string;
                /** @description Notices published after this date or instant (ISO) */
                publishedAfter?: string;
                /** @description Words of the title, case-insensitive */
                q?: string;
                /** @description The buyer's country */
                country?: "NO" | "SE" | "DK" | "FI" | "IS";
                sort?: "publishedAt" | "deadline" | "value";
                order?: "asc" | "desc";
                /** @description 1–100; values above your tier’s maxPageSize are capped */
                limit?: number;
                /** @description nextCursor of the previous page (same query) */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "noticeId": "2026-107304",
                     *           "doffinId": "2026-107304",
                     *           "tedId": "712345-2026",
                     *           "eformsId": "3f1c9a52-6d0e-4b7a-9a7e-1c2d3e4f5a60",
                     *           "procedureId": "b7e21f04-58c3-4d1a-8e6f-0a9b8c7d6e51",
                     *           "noticeType": "competition",
                     *           "noticeTypeCode": "cn-standard",
                     *           "status": "ACTIVE",
                     *           "title": "Rammeavtale for renhold av skolebygg",
                     *           "description": "Utdanningsetaten inviterer til åpen anbudskonkurranse om rammeavtale for daglig renhold.",
                     *           "orgNumber": "974760673",
                     *           "contractingAuthority": "Oslo kommune v/ Utdanningsetaten",
                     *           "country": "NO",
                     *           "cpvCodes": [
                     *             "90911200",
                     *             "90919200"
                     *           ],
                     *           "procedureType": "open",
                     *           "publishedDate": "2026-11-02T08:15:00.000Z",
                     *           "deadline": "2026-12-15T11:00:00.000Z",
                     *           "estimatedValue": 12500000,
                     *           "currency": "NOK",
                     *           "awardedValue": null,
                     *           "lots": [
                     *             {
                     *               "lotId": "LOT-0001",
                     *               "title": "Delområde 1: Oslo sentrum og øst",
                     *               "cpvCodes": [
                     *                 "90911200"
                     *               ],
                     *               "estimatedValue": 7000000,
                     *               "currency": "NOK",
                     *               "deadline": "2026-12-15T11:00:00.000Z",
                     *               "nutsCodes": [
                     *                 "NO081"
                     *               ]
                     *             }
                     *           ],
                     *           "placeOfPerformance": [
                     *             "NO081"
                     *           ],
                     *           "winners": [],
                     *           "url": "https://www.doffin.no/notices/2026-107304",
                     *           "sources": [
                     *             "doffin",
                     *             "ted"
                     *           ],
                     *           "updatedAt": "2026-11-05T06:00:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": "eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8",
                     *       "hasMore": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ProcurementNotice"][];
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        hasMore: boolean;
                        /** @description On an empty first page when no source that publishes such notices (Doffin for NO, TED for every country) has been loaded on this server, e.g. "No procurement source with SE notices (TED) has been loaded on this server (an operator runs ncd sync procurement)". Absent otherwise. */
                        note?: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getProcurementByNoticeId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Doffin id (2026-107304), TED publication number (712345-2026) or eForms notice id (a UUID) */
                noticeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcurementNotice"];
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `notice_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getEvents: {
        parameters: {
            query?: {
                /** @description Events with a seq above this (default 0: the oldest kept) */
                after?: number;
                orgNumber?: string;
                country?: "NO" | "SE" | "FI" | "DK";
                /** @description One category or a comma-separated list */
                category?: string;
                /** @description Default 100; capped by tier (50 × the key's page size) */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "seq": 1042,
                     *           "id": "3f0c7a52-8d0e-8d6f-8000-000000000412",
                     *           "orgNumber": "923609016",
                     *           "country": "NO",
                     *           "category": "status",
                     *           "type": "bankrupt",
                     *           "fieldsChanged": [
                     *             "isBankrupt",
                     *             "status"
                     *           ],
                     *           "before": {
                     *             "isBankrupt": false,
                     *             "status": "active"
                     *           },
                     *           "after": {
                     *             "isBankrupt": true,
                     *             "status": "bankrupt"
                     *           },
                     *           "occurredAt": "2026-11-27T06:00:00.000Z",
                     *           "source": "Brønnøysundregistrene"
                     *         }
                     *       ],
                     *       "nextAfter": 1042,
                     *       "hasMore": false
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Global, gapless and increasing; resume after the last one you saw */
                            seq: number;
                            /** @description Unique id of the event: a UUID (version 8) of this installation and the seq */
                            id: string;
                            orgNumber: string;
                            country: string;
                            /**
                             * @description What kind of change
                             * @enum {string}
                             */
                            category: "status" | "name" | "address" | "industry" | "roles" | "ownership" | "accounts" | "subUnits" | "licence" | "inspection" | "screening" | "procurement" | "deleted";
                            /** @description bankrupt, dissolved, deregistered, reinstated, status_changed, name_changed, address_changed, industry_changed, accounts_filed, ceo_changed, chair_changed, auditor_changed, board_changed, roles_changed, sub_units_changed, removed, match_appeared, match_disappeared */
                            type: string;
                            fieldsChanged: string[];
                            /** @description The changed fields only (never a national id or birth date) */
                            before: {
                                [key: string]: unknown;
                            };
                            /** @description The changed fields only (never a national id or birth date) */
                            after: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            occurredAt: string;
                            source: string;
                        }[];
                        /** @description Pass as `after` for the next page (the last seq looked at) */
                        nextAfter: number;
                        /** @description More events may follow below the committed top: read on from `nextAfter`. Under a category or country filter alone a page reads at most 200,000 seqs, so it can be short, even empty, while `hasMore` is true. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Default Response */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Events after this seq are past retention; resume from resumeAfter",
                     *       "code": "events_expired",
                     *       "resumeAfter": 1042,
                     *       "requestId": "6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f",
                     *       "docs": "http://localhost:3000/errors#events_expired"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        /** @enum {string} */
                        code: "events_expired";
                        /** @description The lowest `after` that is still complete */
                        resumeAfter: number;
                        requestId?: string;
                        /** Format: uri */
                        docs?: string;
                    };
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getEventsStream: {
        parameters: {
            query?: {
                /** @description Events with a seq above this (default 0: the oldest kept) */
                after?: number;
                orgNumber?: string;
                country?: "NO" | "SE" | "FI" | "DK";
                /** @description One category or a comma-separated list */
                category?: string;
            };
            header?: {
                /** @description The last seq received */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Default Response */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Events after this seq are past retention; resume from resumeAfter",
                     *       "code": "events_expired",
                     *       "resumeAfter": 1042,
                     *       "requestId": "6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f",
                     *       "docs": "http://localhost:3000/errors#events_expired"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        /** @enum {string} */
                        code: "events_expired";
                        /** @description The lowest `after` that is still complete */
                        resumeAfter: number;
                        requestId?: string;
                        /** Format: uri */
                        docs?: string;
                    };
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `too_many_streams`, `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWatchlists: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "name": "kyc-portfolio",
                     *           "categories": [
                     *             "status",
                     *             "roles",
                     *             "screening"
                     *           ],
                     *           "destination": "crm-webhook",
                     *           "companyCount": 2,
                     *           "paused": false,
                     *           "pausedReason": null,
                     *           "deliveredThrough": 1042,
                     *           "createdAt": "2026-11-27T06:00:00.000Z",
                     *           "updatedAt": "2026-11-27T06:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            name: string;
                            categories: ("status" | "name" | "address" | "industry" | "roles" | "ownership" | "accounts" | "subUnits" | "licence" | "inspection" | "screening" | "procurement" | "deleted")[];
                            /** @description Name of the destination alerts go to */
                            destination: string;
                            companyCount: number;
                            paused: boolean;
                            /** @description `delivery_failed` when a batch could not be delivered for 24 hours */
                            pausedReason: string | null;
                            /** @description Every event up to this seq has been batched */
                            deliveredThrough: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postWatchlists: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "kyc-portfolio",
                 *       "categories": [
                 *         "status",
                 *         "roles"
                 *       ],
                 *       "destination": "crm-webhook"
                 *     }
                 */
                "application/json": {
                    /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                    name: string;
                    categories: ("status" | "name" | "address" | "industry" | "roles" | "ownership" | "accounts" | "subUnits" | "licence" | "inspection" | "screening" | "procurement" | "deleted")[];
                    /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                    destination: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "kyc-portfolio",
                     *       "categories": [
                     *         "status",
                     *         "roles",
                     *         "screening"
                     *       ],
                     *       "destination": "crm-webhook",
                     *       "companyCount": 2,
                     *       "paused": false,
                     *       "pausedReason": null,
                     *       "deliveredThrough": 1042,
                     *       "createdAt": "2026-11-27T06:00:00.000Z",
                     *       "updatedAt": "2026-11-27T06:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        name: string;
                        categories: ("status" | "name" | "address" | "industry" | "roles" | "ownership" | "accounts" | "subUnits" | "licence" | "inspection" | "screening" | "procurement" | "deleted")[];
                        /** @description Name of the destination alerts go to */
                        destination: string;
                        companyCount: number;
                        paused: boolean;
                        /** @description `delivery_failed` when a batch could not be delivered for 24 hours */
                        pausedReason: string | null;
                        /** @description Every event up to this seq has been batched */
                        deliveredThrough: number;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `key_not_found`, `company_not_found`, `destination_not_found`, `notice_not_found`, `watchlist_not_found`, `evidence_not_found`, `integration_not_configured`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: `watchlist_name_taken`. See /errors */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWatchlistsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "kyc-portfolio",
                     *       "categories": [
                     *         "status",
                     *         "roles",
                     *         "screening"
                     *       ],
                     *       "destination": "crm-webhook",
                     *       "companyCount": 2,
                     *       "paused": false,
                     *       "pausedReason": null,
                     *       "deliveredThrough": 1042,
                     *       "createdAt": "2026-11-27T06:00:00.000Z",
                     *       "updatedAt": "2026-11-27T06:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        name: string;
                        categories: ("status" | "name" | "address" | "industry" | "roles" | "ownership" | "accounts" | "subUnits" | "licence" | "inspection" | "screening" | "procurement" | "deleted")[];
                        /** @description Name of the destination alerts go to */
                        destination: string;
                        companyCount: number;
                        paused: boolean;
                        /** @description `delivery_failed` when a batch could not be delivered for 24 hours */
                        pausedReason: string | null;
                        /** @description Every event up to this seq has been batched */
                        deliveredThrough: number;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `watchlist_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    putWatchlistsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "categories": [
                 *         "status"
                 *       ],
                 *       "paused": false
                 *     }
                 */
                "application/json": {
                    categories?: ("status" | "name" | "address" | "industry" | "roles" | "ownership" | "accounts" | "subUnits" | "licence" | "inspection" | "screening" | "procurement" | "deleted")[];
                    /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                    destination?: string;
                    /** @description false resumes a paused watchlist (an abandoned batch is sent again) */
                    paused?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "kyc-portfolio",
                     *       "categories": [
                     *         "status",
                     *         "roles",
                     *         "screening"
                     *       ],
                     *       "destination": "crm-webhook",
                     *       "companyCount": 2,
                     *       "paused": false,
                     *       "pausedReason": null,
                     *       "deliveredThrough": 1042,
                     *       "createdAt": "2026-11-27T06:00:00.000Z",
                     *       "updatedAt": "2026-11-27T06:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        name: string;
                        categories: ("status" | "name" | "address" | "industry" | "roles" | "ownership" | "accounts" | "subUnits" | "licence" | "inspection" | "screening" | "procurement" | "deleted")[];
                        /** @description Name of the destination alerts go to */
                        destination: string;
                        companyCount: number;
                        paused: boolean;
                        /** @description `delivery_failed` when a batch could not be delivered for 24 hours */
                        pausedReason: string | null;
                        /** @description Every event up to this seq has been batched */
                        deliveredThrough: number;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `watchlist_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteWatchlistsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `watchlist_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWatchlistsByNameCompanies: {
        parameters: {
            query?: {
                /** @description 1–100; values above your tier’s maxPageSize are capped */
                limit?: number;
                /** @description nextCursor of the previous page (same query) */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "orgNumber": "923609016",
                     *           "country": "NO",
                     *           "name": "EQUINOR ASA",
                     *           "addedAt": "2026-11-27T06:00:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": "eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8",
                     *       "hasMore": true
                     *     }
                     */
                    "application/json": {
                        data: {
                            orgNumber: string;
                            country: string;
                            /** @description The name the store holds for the company; null when the store does not hold it */
                            name: string | null;
                            /**
                             * Format: date-time
                             * @description When the company was added to this watchlist
                             */
                            addedAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `company_not_found`, `watchlist_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`, `cursor_depth_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    postWatchlistsByNameCompanies: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "companies": [
                 *         {
                 *           "orgNumber": "923609016",
                 *           "country": "NO"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    companies: {
                        orgNumber: string;
                        /** @enum {string} */
                        country: "NO" | "SE" | "FI" | "DK";
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "changed": 1,
                     *       "companyCount": 3,
                     *       "maxCompanies": 5000
                     *     }
                     */
                    "application/json": {
                        /** @description Companies added (or removed) by this call */
                        changed: number;
                        companyCount: number;
                        /** @description The tier's size limit */
                        maxCompanies: number;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `company_not_found`, `watchlist_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: `watchlist_name_taken`, `watchlist_full`. See /errors */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`, `cursor_depth_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteWatchlistsByNameCompanies: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "companies": [
                 *         {
                 *           "orgNumber": "923609016",
                 *           "country": "NO"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    companies: {
                        orgNumber: string;
                        /** @enum {string} */
                        country: "NO" | "SE" | "FI" | "DK";
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "changed": 1,
                     *       "companyCount": 3,
                     *       "maxCompanies": 5000
                     *     }
                     */
                    "application/json": {
                        /** @description Companies added (or removed) by this call */
                        changed: number;
                        companyCount: number;
                        /** @description The tier's size limit */
                        maxCompanies: number;
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`, `invalid_cursor`, `cursor_query_mismatch`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `company_not_found`, `watchlist_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`, `live_fetch_budget_exceeded`, `cursor_depth_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWatchlistsByNameDeliveries: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Unique within the project; letters, digits and . _ ~ - (it appears in URLs) */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "webhookId": "msg_5f1c2b7e-0d1a-4f57-9d3e-7b3a8c2e9f10",
                     *           "fromSeq": 1040,
                     *           "toSeq": 1042,
                     *           "eventCount": 2,
                     *           "status": "delivered",
                     *           "attempts": 3,
                     *           "lastStatus": 204,
                     *           "lastError": null,
                     *           "nextAttemptAt": null,
                     *           "createdAt": "2026-11-27T06:00:00.000Z",
                     *           "deliveredAt": "2026-11-27T06:01:10.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description The webhook-id header: the same on every attempt of this batch */
                            webhookId: string;
                            fromSeq: number;
                            toSeq: number;
                            eventCount: number;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "abandoned";
                            attempts: number;
                            /** @description The receiver's last HTTP status */
                            lastStatus: number | null;
                            lastError: string | null;
                            nextAttemptAt: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            deliveredAt: string | null;
                        }[];
                    };
                };
            };
            /** @description Bad request: `validation_failed`, `invalid_json`. See /errors */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unauthorized: `missing_api_key`, `invalid_api_key`. See /errors */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Payment required: `trial_expired`. See /errors */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found: `watchlist_not_found`. See /errors */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description URI too long: `uri_too_long`. See /errors */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests: `rate_limited`, `daily_quota_exceeded`, `monthly_quota_exceeded`. See /errors */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal server error: `internal_error`, `query_failed`. See /errors */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Service unavailable: `service_unavailable`. See /errors */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
