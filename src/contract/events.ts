// Schemas of the event log, its stream and watchlists.
import { Type } from 'typebox';
import { EVENT_CATEGORIES } from '../domain/company-events.ts';
import { StringEnum } from './common.ts';
import { DestinationName } from './destinations.ts';
import { pageExample } from './examples/common.ts';
import { CursorParam, LimitParam, Page } from './pagination.ts';

export const EventCategory = StringEnum(EVENT_CATEGORIES, { description: 'What kind of change' });

const FieldValues = Type.Record(Type.String(), Type.Unknown(), {
  description: 'The changed fields only (never a national id or birth date)',
});

const EVENT_EXAMPLE = {
  seq: 1042,
  id: '3f0c7a52-8d0e-8d6f-8000-000000000412',
  orgNumber: '923609016',
  country: 'NO',
  category: 'status',
  type: 'bankrupt',
  fieldsChanged: ['isBankrupt', 'status'],
  before: { isBankrupt: false, status: 'active' },
  after: { isBankrupt: true, status: 'bankrupt' },
  occurredAt: '2026-11-27T06:00:00.000Z',
  source: 'Brønnøysundregistrene',
};

const CompanyEvent = Type.Object(
  {
    seq: Type.Integer({ description: 'Global, gapless and increasing; resume after the last one you saw' }),
    id: Type.String({ description: 'Unique id of the event: a UUID (version 8) of this installation and the seq' }),
    orgNumber: Type.String(),
    country: Type.String(),
    category: EventCategory,
    type: Type.String({
      description:
        'bankrupt, dissolved, deregistered, reinstated, status_changed, name_changed, address_changed, industry_changed, accounts_filed, ceo_changed, chair_changed, auditor_changed, board_changed, roles_changed, sub_units_changed, removed, match_appeared, match_disappeared',
    }),
    fieldsChanged: Type.Array(Type.String()),
    before: FieldValues,
    after: FieldValues,
    occurredAt: Type.String({ format: 'date-time' }),
    source: Type.String(),
  },
  { examples: [EVENT_EXAMPLE] },
);

export const EventsQuery = Type.Object({
  after: Type.Optional(
    Type.Integer({
      minimum: 0,
      // seq is a bigint in the store; above 2^53 - 1 a JSON number is no longer exact.
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Events with a seq above this (default 0: the oldest kept)',
    }),
  ),
  orgNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9A-Za-z-]+$' })),
  country: Type.Optional(StringEnum(['NO', 'SE', 'FI', 'DK'] as const)),
  category: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: `^(${EVENT_CATEGORIES.join('|')})(,(${EVENT_CATEGORIES.join('|')}))*$`,
      description: 'One category or a comma-separated list',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 5000, description: "Default 100; capped by tier (50 × the key's page size)" }),
  ),
});

/** 410 events_expired: `after` is below what retention kept. */
export const EventsExpired = Type.Object(
  {
    error: Type.String(),
    code: StringEnum(['events_expired'] as const),
    resumeAfter: Type.Integer({ description: 'The lowest `after` that is still complete' }),
    requestId: Type.Optional(Type.String()),
    docs: Type.Optional(Type.String({ format: 'uri' })),
  },
  {
    examples: [
      {
        error: 'Events after this seq are past retention; resume from resumeAfter',
        code: 'events_expired',
        resumeAfter: 1042,
        requestId: '6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f',
        docs: 'http://localhost:3000/errors#events_expired',
      },
    ],
  },
);

export const EventsPage = Type.Object(
  {
    data: Type.Array(CompanyEvent),
    nextAfter: Type.Integer({ description: 'Pass as `after` for the next page (the last seq looked at)' }),
    hasMore: Type.Boolean({
      description:
        'More events may follow below the committed top: read on from `nextAfter`. Under a category or country filter alone a page reads at most 200,000 seqs, so it can be short, even empty, while `hasMore` is true.',
    }),
  },
  { examples: [{ data: [EVENT_EXAMPLE], nextAfter: 1042, hasMore: false }] },
);

export const WatchlistName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._~-]+$',
  description: 'Unique within the project; letters, digits and . _ ~ - (it appears in URLs)',
});

const WATCHLIST_EXAMPLE = {
  name: 'kyc-portfolio',
  categories: ['status', 'roles', 'screening'],
  destination: 'crm-webhook',
  companyCount: 2,
  paused: false,
  pausedReason: null,
  deliveredThrough: 1042,
  createdAt: '2026-11-27T06:00:00.000Z',
  updatedAt: '2026-11-27T06:00:00.000Z',
};

export const Watchlist = Type.Object(
  {
    name: Type.String(),
    categories: Type.Array(EventCategory),
    destination: Type.String({ description: 'Name of the destination alerts go to' }),
    companyCount: Type.Integer(),
    paused: Type.Boolean(),
    pausedReason: Type.Union([Type.String(), Type.Null()], {
      description: '`delivery_failed` when a batch could not be delivered for 24 hours',
    }),
    deliveredThrough: Type.Integer({ description: 'Every event up to this seq has been batched' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { examples: [WATCHLIST_EXAMPLE] },
);

export const CreateWatchlistBody = Type.Object(
  {
    name: WatchlistName,
    categories: Type.Array(EventCategory, { minItems: 1, maxItems: EVENT_CATEGORIES.length, uniqueItems: true }),
    destination: DestinationName,
  },
  {
    additionalProperties: false,
    examples: [{ name: 'kyc-portfolio', categories: ['status', 'roles'], destination: 'crm-webhook' }],
  },
);

export const UpdateWatchlistBody = Type.Object(
  {
    categories: Type.Optional(
      Type.Array(EventCategory, { minItems: 1, maxItems: EVENT_CATEGORIES.length, uniqueItems: true }),
    ),
    destination: Type.Optional(DestinationName),
    paused: Type.Optional(
      Type.Boolean({ description: 'false resumes a paused watchlist (an abandoned batch is sent again)' }),
    ),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ categories: ['status'], paused: false }] },
);

export const WatchlistCompaniesBody = Type.Object(
  {
    companies: Type.Array(
      Type.Object(
        {
          orgNumber: Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9A-Za-z-]+$' }),
          country: StringEnum(['NO', 'SE', 'FI', 'DK'] as const),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false, examples: [{ companies: [{ orgNumber: '923609016', country: 'NO' }] }] },
);

export const WatchlistCompaniesResult = Type.Object(
  {
    changed: Type.Integer({ description: 'Companies added (or removed) by this call' }),
    companyCount: Type.Integer(),
    maxCompanies: Type.Integer({ description: "The tier's size limit" }),
  },
  { examples: [{ changed: 1, companyCount: 3, maxCompanies: 5000 }] },
);

export const Watchlists = Type.Object({ data: Type.Array(Watchlist) }, { examples: [{ data: [WATCHLIST_EXAMPLE] }] });

export const EVENT_STREAM_EXAMPLE = `id: 1042\nevent: status\ndata: ${JSON.stringify(EVENT_EXAMPLE)}\n\n`;

// GET /api/events/stream: the filters of GET /api/events (a stream has no page size), the
// resume header, and the stream itself as text.
const { limit: _limit, ...streamFilters } = EventsQuery.properties;
export const EventStreamQuery = Type.Object(streamFilters);
export const EventStreamHeaders = Type.Object({
  'last-event-id': Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'The last seq received' })),
});
export const EventStreamText = Type.String({ description: 'Server-Sent Events', examples: [EVENT_STREAM_EXAMPLE] });

const DELIVERY_EXAMPLE = {
  webhookId: 'msg_5f1c2b7e-0d1a-4f57-9d3e-7b3a8c2e9f10',
  fromSeq: 1040,
  toSeq: 1042,
  eventCount: 2,
  status: 'delivered',
  attempts: 3,
  lastStatus: 204,
  lastError: null,
  nextAttemptAt: null,
  createdAt: '2026-11-27T06:00:00.000Z',
  deliveredAt: '2026-11-27T06:01:10.000Z',
};

const Delivery = Type.Object({
  webhookId: Type.String({ description: 'The webhook-id header: the same on every attempt of this batch' }),
  fromSeq: Type.Integer(),
  toSeq: Type.Integer(),
  eventCount: Type.Integer(),
  status: StringEnum(['pending', 'delivered', 'abandoned'] as const),
  attempts: Type.Integer(),
  lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's last HTTP status" }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const Deliveries = Type.Object({ data: Type.Array(Delivery) }, { examples: [{ data: [DELIVERY_EXAMPLE] }] });

// /api/watchlists/{name}…: the path, and the page size of the delivery log.
export const WatchlistParams = Type.Object({ name: WatchlistName });
export const DeliveriesQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) });

// GET /api/watchlists/{name}/companies: the watchlist's companies, a cursor page at a time.
export const WatchlistMembersQuery = Type.Object({ limit: LimitParam, cursor: CursorParam });

const WatchlistMember = Type.Object({
  orgNumber: Type.String(),
  country: Type.String(),
  name: Type.Union([Type.String(), Type.Null()], {
    description: 'The name the store holds for the company; null when the store does not hold it',
  }),
  addedAt: Type.String({ format: 'date-time', description: 'When the company was added to this watchlist' }),
});

export const WatchlistMembers = Page(WatchlistMember, {
  examples: [
    pageExample({ orgNumber: '923609016', country: 'NO', name: 'EQUINOR ASA', addedAt: '2026-11-27T06:00:00.000Z' }),
  ],
});
