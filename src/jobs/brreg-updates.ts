// brreg-updates: follows brreg's update feeds (/oppdateringer/enheter and /underenheter) from
// the stored position, every 15 minutes. Changed units are re-fetched (core records in batched
// searches); `Sletting` re-fetches the unit, which brreg then serves as deleted; `Fjernet`
// (removed for legal reasons) purges our copy. Accounts are fetched again when a unit's
// latest filed year moved on. Without a position (no full `brreg` sync yet) it does nothing.
import pLimit from 'p-limit';
import { mapEnhet, mapRegnskap, mapRoller, mapUnderenhet } from '../sources/brreg/map.ts';
import type { BrregEnhet, BrregUnderenhet, BrregUpdate } from '../sources/brreg/types.ts';
import { UPDATES_STATE, type UpdatesState } from './brreg.ts';
import { defineJob, pick, type JobPorts, type JobRun } from './job.ts';

/** What the job uses. */
const brregUpdatesDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyReads', 'companyWrites', 'syncRuns'),
  upstreams: p.upstreams,
});
type BrregUpdatesDeps = ReturnType<typeof brregUpdatesDeps>;

const PAGE = 1000;
const DEFAULT_LIMIT = 20_000;

/** Latest entry per org number: the feed may list one unit several times in a page. */
function latestPerUnit(updates: BrregUpdate[]): BrregUpdate[] {
  const m = new Map<string, BrregUpdate>();
  for (const u of updates) m.set(u.organisasjonsnummer, u);
  return [...m.values()];
}

/**
 * A feed page's upstream reads. They touch no table, so the next page's reads run while the
 * previous page is being written (`follow`): the sync then waits on the slower of the two, not
 * their sum.
 */
interface FetchedPage<T> {
  latest: BrregUpdate[];
  /** Units to purge: `Fjernet` in the feed, or gone (410) when fetched. */
  purge: string[];
  units: T[];
}

async function fetchEnheter(deps: BrregUpdatesDeps, latest: BrregUpdate[]): Promise<FetchedPage<BrregEnhet>> {
  const brreg = deps.upstreams.brreg;
  const purge = latest.filter((x) => x.endringstype === 'Fjernet').map((x) => x.organisasjonsnummer);
  const refetch = latest.filter((x) => x.endringstype !== 'Fjernet').map((x) => x.organisasjonsnummer);
  if (!refetch.length) return { latest, purge, units: [] };
  const found = new Map((await brreg.searchEnheter(refetch)).map((e) => [e.organisasjonsnummer, e]));
  const slot = pLimit(10);
  // Not in search: deleted (served with slettedato), removed (410) or unknown.
  await Promise.all(
    refetch
      .filter((n) => !found.has(n))
      .map((n) =>
        slot(async () => {
          const r = await brreg.getEnhet(n);
          if (r.kind === 'found' || r.kind === 'deleted') found.set(n, r.enhet);
          else if (r.kind === 'gone') purge.push(n);
        }),
      ),
  );
  return { latest, purge, units: [...found.values()] as BrregEnhet[] };
}

async function storeEnheter(deps: BrregUpdatesDeps, { latest, purge, units: enheter }: FetchedPage<BrregEnhet>) {
  const brreg = deps.upstreams.brreg;
  for (const n of purge) await deps.repos.companyWrites.purge('NO', n);
  if (!enheter.length) return;
  // Accounts again when the unit filed a newer year than we hold.
  const stored = await deps.repos.companyReads.findRows(
    'NO',
    enheter.map((e) => e.organisasjonsnummer),
  );
  const heldYear = new Map(stored.map((s) => [s.org_number, s.last_submitted_accounts_year]));
  const needAccounts = enheter.filter(
    (e) =>
      e.sisteInnsendteAarsregnskap &&
      e.sisteInnsendteAarsregnskap !== heldYear.get(e.organisasjonsnummer) &&
      heldYear.has(e.organisasjonsnummer),
  );
  const slot = pLimit(10);
  const accounts = new Map<string, ReturnType<typeof mapRegnskap>>();
  await Promise.all(
    needAccounts.map((e) =>
      slot(async () =>
        accounts.set(e.organisasjonsnummer, mapRegnskap(await brreg.getRegnskap(e.organisasjonsnummer))),
      ),
    ),
  );
  // Events: a changed unit whose roles we hold gets its roles again, so a new CEO or
  // board becomes a `roles` event (the unit feed lists role changes as Endring).
  const changedUnits = new Set(latest.filter((x) => x.endringstype === 'Endring').map((x) => x.organisasjonsnummer));
  const found = new Set(enheter.map((e) => e.organisasjonsnummer));
  const roles = new Map<string, ReturnType<typeof mapRoller>>();
  await Promise.all(
    stored
      .filter((s) => s.roles_hash !== null && changedUnits.has(s.org_number) && found.has(s.org_number))
      .map((s) => slot(async () => roles.set(s.org_number, mapRoller(await brreg.getRoller(s.org_number))))),
  );
  await deps.repos.companyWrites.write(
    enheter.map((e) => ({
      core: mapEnhet(e),
      financials: accounts.get(e.organisasjonsnummer),
      roles: roles.get(e.organisasjonsnummer),
    })),
  );
}

async function fetchUnderenheter(deps: BrregUpdatesDeps, latest: BrregUpdate[]): Promise<FetchedPage<BrregUnderenhet>> {
  const brreg = deps.upstreams.brreg;
  const purge = latest.filter((x) => x.endringstype === 'Fjernet').map((x) => x.organisasjonsnummer);
  const slot = pLimit(10);
  const units: BrregUnderenhet[] = [];
  await Promise.all(
    latest
      .filter((x) => x.endringstype !== 'Fjernet')
      .map((x) =>
        slot(async () => {
          const r = await brreg.getUnderenhet(x.organisasjonsnummer);
          if (r.kind === 'found' || r.kind === 'deleted') units.push(r.enhet as BrregUnderenhet);
          else if (r.kind === 'gone') purge.push(x.organisasjonsnummer);
        }),
      ),
  );
  return { latest, purge, units };
}

async function storeUnderenheter(deps: BrregUpdatesDeps, { purge, units }: FetchedPage<BrregUnderenhet>) {
  for (const n of purge) await deps.repos.companyWrites.purgeSubUnit('NO', n);
  await deps.repos.companyWrites.writeSubUnits('NO', units.map(mapUnderenhet));
}

/** How one feed's pages are read from brreg (no store change) and then written. */
interface FeedSteps<T> {
  fetch: (deps: BrregUpdatesDeps, latest: BrregUpdate[]) => Promise<FetchedPage<T>>;
  store: (deps: BrregUpdatesDeps, page: FetchedPage<T>) => Promise<void>;
}
const ENHETER: FeedSteps<BrregEnhet> = { fetch: fetchEnheter, store: storeEnheter };
const UNDERENHETER: FeedSteps<BrregUnderenhet> = { fetch: fetchUnderenheter, store: storeUnderenheter };

async function follow<T>(
  deps: BrregUpdatesDeps,
  kind: 'enheter' | 'underenheter',
  steps: FeedSteps<T>,
  from: number,
  limit: number,
  job: JobRun,
  already: number,
) {
  const read = async (at: number, size: number) => {
    const page = await deps.upstreams.brreg.updates(kind, at, size);
    return { page, fetched: await steps.fetch(deps, latestPerUnit(page)) };
  };
  let position = from;
  let processed = 0;
  let next = limit > 0 ? read(position, Math.min(PAGE, limit)) : undefined;
  while (next) {
    const { page, fetched } = await next;
    if (!page.length) break;
    const more = page.length === PAGE && processed + page.length < limit;
    const after = Math.max(...page.map((u) => u.oppdateringsid)) + 1;
    next = more ? read(after, Math.min(PAGE, limit - processed - page.length)) : undefined;
    // A failed write ends the loop before the read ahead is awaited: its own error is reported
    // (the read's, if any, is dropped rather than left unhandled).
    next?.catch(() => undefined);
    await steps.store(deps, fetched);
    processed += page.length;
    position = after;
    // The position is saved after every applied page: a killed run resumes here.
    const state = (await deps.repos.syncRuns.getState<UpdatesState>(UPDATES_STATE))!;
    await deps.repos.syncRuns.setState(UPDATES_STATE, {
      ...state,
      [kind === 'enheter' ? 'enheterId' : 'underenheterId']: position,
    });
    job.report(already + processed);
  }
  return { processed, position };
}

export const brregUpdatesJob = defineJob({
  name: 'brreg-updates',
  deps: brregUpdatesDeps,
  description: 'Follow the brreg update feeds (every 15 minutes)',
  schedule: '*/15 * * * *',
  options: ['limit'],
  // Follows the feed once a full load (download or a real dump file) has set its position.
  scheduled: async (deps) => (await deps.repos.syncRuns.getState(UPDATES_STATE)) !== undefined,
  async run(deps, opts, job) {
    const state = await deps.repos.syncRuns.getState<UpdatesState>(UPDATES_STATE);
    if (!state) {
      job.progress('no feed position yet: run `ncd sync brreg` (a full dump) first');
      return { recordsProcessed: 0, details: { skipped: 'no position' } };
    }
    const limit = opts.limit ?? DEFAULT_LIMIT;
    const enheter = await follow(deps, 'enheter', ENHETER, state.enheterId, limit, job, 0);
    const underenheter = await follow(
      deps,
      'underenheter',
      UNDERENHETER,
      state.underenheterId,
      limit,
      job,
      enheter.processed,
    );
    job.progress(
      `updates: ${enheter.processed} enheter (next id ${enheter.position}), ${underenheter.processed} underenheter (next id ${underenheter.position})`,
    );
    return { recordsProcessed: enheter.processed + underenheter.processed, details: { enheter, underenheter } };
  },
});
