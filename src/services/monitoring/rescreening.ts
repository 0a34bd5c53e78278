// Re-screening on list change: after a sanctions/PEP list sync, every company on any
// watchlist is screened again (the same screening as GET /api/companies/{orgNumber}/screening, at
// the default threshold). A matched list entity that appeared or disappeared since the last
// re-screening becomes a `screening` event, which watchlists alert on like any other category.
// A company never re-screened before counts as having had no match.
import { screeningEvent, type ScreenedMatch } from '../../domain/record-events.ts';
import type { Country } from '../../domain/org-number.ts';
import { ApiError } from '../../errors.ts';
import type { ScreeningStateRepository, WatchedCompany } from '../../store/events/screening-states.ts';
import type { createScreeningService } from '../screening/screening.ts';

export interface RescreeningDeps {
  screening: Pick<ReturnType<typeof createScreeningService>, 'screen'>;
  screeningStates: ScreeningStateRepository;
}

/** Watched companies read per page. */
const PAGE = 500;

/** The matched entities of one screening answer, each once with its best score. */
function matchedEntities(matches: { entityId: string; entityName: string; list: string; score: number }[]) {
  const best = new Map<string, ScreenedMatch>();
  for (const m of matches) {
    const seen = best.get(m.entityId);
    if (!seen || m.score > seen.score)
      best.set(m.entityId, { entityId: m.entityId, entityName: m.entityName, list: m.list, score: m.score });
  }
  return [...best.values()].sort((a, b) => a.entityId.localeCompare(b.entityId));
}

export function createRescreeningService(deps: RescreeningDeps) {
  const { screening, screeningStates } = deps;

  async function rescreenOne(c: WatchedCompany): Promise<boolean> {
    let found: ScreenedMatch[];
    try {
      found = matchedEntities((await screening.screen(c.country as Country, c.orgNumber)).matches);
    } catch (err) {
      // A watched company not (or no longer) in the store, or a number that is no valid one,
      // cannot be screened: there is nothing to compare.
      if (err instanceof ApiError) return false;
      throw err;
    }
    const event = screeningEvent(c, await screeningStates.matchesOf(c), found);
    await screeningStates.record(c, found, event);
    return event !== null;
  }

  return {
    /** Screens every watched company again; returns how many were screened and how many changed. */
    async rescreenWatched(): Promise<{ screened: number; changed: number }> {
      let screened = 0;
      let changed = 0;
      let from: WatchedCompany | undefined;
      for (;;) {
        const page = await screeningStates.watched(PAGE, from);
        for (const c of page) {
          screened++;
          if (await rescreenOne(c)) changed++;
        }
        if (page.length < PAGE) return { screened, changed };
        from = page.at(-1);
      }
    },
  };
}
