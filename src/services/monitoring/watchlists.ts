// Watchlists: CRUD scoped to the caller's project, their companies (up to 1,000 per
// call, a size limit per tier; listed a cursor page at a time) and the delivery log. Alerts go to one of the project's push
// destinations (src/push: SSRF-guarded, encrypted config, optional Standard Webhooks signature);
// sending is services/watchlist-delivery.ts.
import type { MonitoringConfig } from '../../config/index.ts';
import type { EventCategory } from '../../domain/company-events.ts';
import { ApiError } from '../../errors.ts';
import type { DestinationRepository } from '../../store/destinations.ts';
import type { EventLogRepository } from '../../store/events/event-log.ts';
import {
  WatchlistNameTakenError,
  type CompanyRef,
  type DeliveryRow,
  type WatchlistRepository,
  type WatchlistRow,
} from '../../store/watchlists.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { Pagination } from '../support/pagination.ts';

interface WatchlistInput {
  name: string;
  categories: string[];
  destination: string;
}

interface WatchlistPatch {
  categories?: string[];
  destination?: string;
  paused?: boolean;
}

export interface WatchlistServiceDeps {
  watchlists: WatchlistRepository;
  destinations: DestinationRepository;
  eventLog: EventLogRepository;
  config: { monitoring: Pick<MonitoringConfig, 'watchlistCompanies'> };
  pagination: Pagination;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function deliveryView(d: DeliveryRow) {
  return {
    webhookId: d.webhook_id,
    fromSeq: d.from_seq,
    toSeq: d.to_seq,
    eventCount: d.event_count,
    status: d.status,
    attempts: d.attempts,
    lastStatus: d.last_status,
    lastError: d.last_error,
    nextAttemptAt: d.status === 'pending' ? iso(d.next_attempt_at) : null,
    createdAt: iso(d.created_at)!,
    deliveredAt: iso(d.delivered_at),
  };
}

/** Watchlists a project may hold, by tier. */
export const WATCHLISTS_PER_PROJECT: Record<string, number> = { free: 5, pro: 100, enterprise: 1000, internal: 1000 };

export function createWatchlistService(deps: WatchlistServiceDeps) {
  const repo = deps.watchlists;

  function maxCompanies(caller: AuthContext): number {
    const sizes = deps.config.monitoring.watchlistCompanies;
    return sizes[caller.tier as keyof typeof sizes] ?? sizes.free;
  }

  /** Watchlists per project: with the company limit over all of them, the total is bounded. */
  function maxWatchlists(caller: AuthContext): number {
    return WATCHLISTS_PER_PROJECT[caller.tier] ?? WATCHLISTS_PER_PROJECT.free;
  }

  async function destinationId(caller: AuthContext, name: string): Promise<string> {
    const d = await deps.destinations.find(caller.projectId, name);
    if (!d)
      throw new ApiError('destination_not_found', {
        details: [{ path: 'body.destination', message: 'no destination of this name in your project' }],
      });
    return d.id;
  }

  async function find(caller: AuthContext, name: string): Promise<WatchlistRow> {
    const row = await repo.get(caller.projectId, name);
    if (!row) throw new ApiError('watchlist_not_found');
    return row;
  }

  async function view(row: WatchlistRow, companyCount?: number) {
    return {
      name: row.name,
      categories: row.categories as EventCategory[],
      destination: (await repo.destinationName(row.destination_id)) ?? '',
      companyCount: companyCount ?? (await repo.companyCount(row.id)),
      paused: row.paused,
      pausedReason: row.paused_reason,
      deliveredThrough: row.cursor_seq,
      createdAt: iso(row.created_at)!,
      updatedAt: iso(row.updated_at)!,
    };
  }

  return {
    async create(caller: AuthContext, input: WatchlistInput) {
      const destination = await destinationId(caller, input.destination);
      // Alerts start from now: events committed before the watchlist existed are not sent.
      const { lastSeq } = await deps.eventLog.bounds();
      try {
        const maxLists = maxWatchlists(caller);
        const row = await repo.insert({
          projectId: caller.projectId,
          name: input.name,
          categories: input.categories,
          destinationId: destination,
          cursorSeq: lastSeq,
          maxLists,
        });
        if (!row)
          throw new ApiError('watchlist_full', {
            message: `Your project already has ${maxLists} watchlists, your tier's limit`,
          });
        return view(row, 0);
      } catch (err) {
        if (err instanceof WatchlistNameTakenError)
          throw new ApiError('watchlist_name_taken', {
            details: [{ path: 'body.name', message: 'is already taken in this project' }],
          });
        throw err;
      }
    },

    async list(caller: AuthContext) {
      const rows = await repo.list(caller.projectId);
      return { data: await Promise.all(rows.map((r) => view(r, Number(r.company_count)))) };
    },

    async get(caller: AuthContext, name: string) {
      return view(await find(caller, name));
    },

    async update(caller: AuthContext, name: string, patch: WatchlistPatch) {
      const row = await find(caller, name);
      const destination = patch.destination ? await destinationId(caller, patch.destination) : undefined;
      return view(
        await repo.update(row.id, { categories: patch.categories, destinationId: destination, paused: patch.paused }),
      );
    },

    async remove(caller: AuthContext, name: string) {
      await repo.remove((await find(caller, name)).id);
    },

    async addCompanies(caller: AuthContext, name: string, companies: CompanyRef[]) {
      const row = await find(caller, name);
      const max = maxCompanies(caller);
      // The whole call or nothing: one that would overflow the limit adds no company.
      const changed = await repo.addCompaniesWithin(row.id, companies, max);
      if (changed === null)
        throw new ApiError('watchlist_full', {
          message: `Your project's watchlists would hold more than ${max} companies in all, your tier's limit`,
        });
      return { changed, companyCount: await repo.companyCount(row.id), maxCompanies: max };
    },

    async removeCompanies(caller: AuthContext, name: string, companies: CompanyRef[]) {
      const row = await find(caller, name);
      const changed = await repo.removeCompanies(row.id, companies);
      return { changed, companyCount: await repo.companyCount(row.id), maxCompanies: maxCompanies(caller) };
    },

    /**
     * The watchlist's companies in (country, orgNumber) order, a cursor page at a time. The cursor
     * is bound to this watchlist (its id: a list deleted and made again under the name starts over).
     */
    async companies(caller: AuthContext, name: string, q: { limit?: number; cursor?: string }) {
      const row = await find(caller, name);
      const page = await deps.pagination.page(
        caller,
        {
          scope: 'watchlist-companies',
          bound: { watchlist: row.id },
          cursor: q.cursor,
          limit: q.limit,
          depthGuard: false,
        },
        async (limit, after) => {
          const [country, orgNumber] = after ? String(after[0]).split('|') : [];
          const rows = await repo.members(row.id, { after: after ? { country, orgNumber } : undefined, limit });
          return { rows, positions: rows.map((r) => [`${r.country}|${r.org_number}`, 0] as [string, number]) };
        },
      );
      return {
        data: page.rows.map((r) => ({
          orgNumber: r.org_number,
          country: r.country,
          name: r.name,
          addedAt: iso(r.added_at)!,
        })),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },

    async deliveries(caller: AuthContext, name: string, limit: number) {
      const row = await find(caller, name);
      return { data: (await repo.deliveries(row.id, limit)).map(deliveryView) };
    },
  };
}
