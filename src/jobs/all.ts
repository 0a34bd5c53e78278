// Importing this module registers every sync job (each job module calls defineJob).
import './brreg.ts';
import './brreg-updates.ts';
import './brreg-parts.ts';
import './prh.ts';
import './bolagsverket.ts';
import './cvr.ts';
import './cvr-financials.ts';
import './web-profile.ts';
import './shareholders.ts';
import './inspections.ts';
import './licenses.ts';
import './sanctions.ts';
import './coverage.ts';
import './statistics.ts';
import './procurement.ts';
import './event-retention.ts';
