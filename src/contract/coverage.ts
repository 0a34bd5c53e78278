// GET /api/coverage: the country x category completeness table of the latest nightly snapshot.
import { Type, type TSchema } from 'typebox';
import { StringEnum } from './common.ts';
import { COVERAGE_CATEGORIES } from '../domain/coverage.ts';

const N = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const Cell = Type.Object({
  country: Type.String({ description: 'ISO 3166-1 alpha-2 country code' }),
  category: StringEnum(COVERAGE_CATEGORIES),
  records: Type.Integer({
    description:
      'Rows stored in this category for the country (technologies: detections; screeningLists: listed entities, shared by every country)',
  }),
  companiesWith: N(
    Type.Integer({
      description: 'Companies of the country with at least one record of the category (null: not per company)',
    }),
  ),
  share: N(
    Type.Number({ minimum: 0, maximum: 1, description: 'companiesWith / companies of the country, 4 decimals' }),
  ),
  lastSync: N(
    Type.String({ format: 'date-time', description: 'Latest successful sync of any source of the category' }),
  ),
  cadence: Type.Array(Type.Object({ job: Type.String(), cron: Type.String({ description: 'UTC cron expression' }) }), {
    description: 'Schedules of the jobs that keep the category fresh on this server (empty: on demand only)',
  }),
  sources: Type.Array(Type.String(), {
    description: 'Data-source names (as in /api/health dataSources) feeding the category',
  }),
});

const EXAMPLE = {
  snapshotAt: '2026-05-20T02:00:03.120Z',
  countries: ['FI', 'NO', 'SE'],
  categories: [...COVERAGE_CATEGORIES],
  rows: [
    {
      country: 'NO',
      category: 'companies',
      records: 1162000,
      companiesWith: 1162000,
      share: 1,
      lastSync: '2026-05-20T01:45:09.000Z',
      cadence: [
        { job: 'brreg-updates', cron: '*/15 * * * *' },
        { job: 'brreg', cron: '0 3 1 * *' },
      ],
      sources: ['brreg-updates', 'brreg-snapshot'],
    },
    {
      country: 'NO',
      category: 'financials',
      records: 2410331,
      companiesWith: 402118,
      share: 0.3461,
      lastSync: '2026-05-18T04:12:40.000Z',
      cadence: [],
      sources: ['regnskap'],
    },
    {
      country: 'SE',
      category: 'shareholders',
      records: 0,
      companiesWith: 0,
      share: 0,
      lastSync: null,
      cadence: [],
      sources: [],
    },
  ],
};

export const CoverageTable = Type.Object(
  {
    snapshotAt: N(
      Type.String({ format: 'date-time', description: 'When the snapshot was measured; null before the first one' }),
    ),
    countries: Type.Array(Type.String()),
    categories: Type.Array(Type.String()),
    rows: Type.Array(Cell, { description: 'One row per country and category' }),
  },
  { examples: [EXAMPLE] },
);
