// Statistics figures (market context): each bureau's figures and table records, replaced per
// country in one transaction, and read back per municipality and per industry key (a NACE
// division, its section, the bureau's grouping). A table record with `unavailable` is a table
// whose metadata check failed: the measure has no figures and the record says why.
import type { Kysely } from 'kysely';
import type { Database } from './engine/schema.ts';

export interface StatisticsFigureRow {
  scope: 'municipality' | 'industry';
  key: string;
  level: string;
  label: string | null;
  cohort: number | null;
  measure: string;
  value: number;
  year: number;
  table: string;
  unit: string;
  fetchedAt: string;
}

export interface StatisticsTableRow {
  scope: 'municipality' | 'industry';
  measure: string;
  table: string;
  title: string;
  unit: string;
  year: number | null;
  source: string;
  licence: string;
  url: string;
  updated: string | null;
  /** Why the measure is unavailable (its metadata check failed); null for a table with figures. */
  unavailable: string | null;
  fetchedAt: string;
}

interface StatisticsReplacement {
  source: string;
  licence: string;
  fetchedAt: Date;
  figures: {
    scope: 'municipality' | 'industry';
    key: string;
    /** Default: `municipality` or `division` by scope. */
    level?: string;
    label?: string | null;
    cohort?: number | null;
    measure: string;
    value: number;
    year: number;
    table: string;
    unit: string;
  }[];
  tables: {
    scope: 'municipality' | 'industry';
    measure: string;
    table: string;
    title: string;
    unit: string;
    year: number;
    url: string;
    updated: string | null;
  }[];
  /** Measures whose table failed this run: their previous figures and table record stay. */
  keep: { scope: 'municipality' | 'industry'; measure: string }[];
  /** Tables whose metadata check failed: recorded with the reason, without figures. */
  unavailable?: {
    scope: 'municipality' | 'industry';
    measure: string;
    table: string;
    title: string;
    unit: string;
    url: string;
    reason: string;
  }[];
}

const CHUNK = 1000;

export function createStatisticsRepository(db: Kysely<Database>) {
  return {
    /**
     * Replaces the figures and table records of one country, except the measures in `keep`;
     * readers see the old set or the new one.
     */
    async replaceCountry(country: string, data: StatisticsReplacement): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const table of ['statistics_figures', 'statistics_tables'] as const) {
          let replaced = trx.deleteFrom(table).where('country', '=', country);
          for (const k of data.keep)
            replaced = replaced.where((eb) =>
              eb.not(eb.and([eb('scope', '=', k.scope), eb('measure', '=', k.measure)])),
            );
          await replaced.execute();
        }
        const figures = data.figures.map((f) => ({
          country,
          scope: f.scope,
          key: f.key,
          level: f.level ?? (f.scope === 'municipality' ? 'municipality' : 'division'),
          label: f.label ?? null,
          cohort: f.cohort ?? null,
          measure: f.measure,
          value: f.value,
          ref_year: f.year,
          table_id: f.table,
          unit: f.unit,
          fetched_at: data.fetchedAt,
        }));
        for (let i = 0; i < figures.length; i += CHUNK)
          await trx
            .insertInto('statistics_figures')
            .values(figures.slice(i, i + CHUNK))
            .execute();
        const records = [
          ...data.tables.map((t) => ({ ...t, unavailable: null as string | null })),
          ...(data.unavailable ?? []).map((t) => ({ ...t, year: null, updated: null, unavailable: t.reason })),
        ];
        if (records.length)
          await trx
            .insertInto('statistics_tables')
            .values(
              records.map((t) => ({
                country,
                scope: t.scope,
                measure: t.measure,
                table_id: t.table,
                title: t.title,
                unit: t.unit,
                ref_year: t.year,
                source: data.source,
                licence: data.licence,
                url: t.url,
                updated: t.updated,
                unavailable: t.unavailable,
                fetched_at: data.fetchedAt,
              })),
            )
            .execute();
      });
    },

    /** The figures of one municipality and/or the industry keys of one NACE division (itself, its section, a grouping). */
    async figures(country: string, municipality: string | null, industry: string[]): Promise<StatisticsFigureRow[]> {
      if (municipality === null && industry.length === 0) return [];
      const rows = await db
        .selectFrom('statistics_figures')
        .select([
          'scope',
          'key',
          'level',
          'label',
          'cohort',
          'measure',
          'value',
          'ref_year',
          'table_id',
          'unit',
          'fetched_at',
        ])
        .where('country', '=', country)
        .where((eb) =>
          eb.or([
            ...(municipality !== null
              ? [eb.and([eb('scope', '=', 'municipality'), eb('key', '=', municipality)])]
              : []),
            ...(industry.length ? [eb.and([eb('scope', '=', 'industry'), eb('key', 'in', industry)])] : []),
          ]),
        )
        .execute();
      return rows.map((r) => ({
        scope: r.scope as StatisticsFigureRow['scope'],
        key: r.key,
        level: r.level,
        label: r.label,
        cohort: r.cohort,
        measure: r.measure,
        value: Number(r.value),
        year: r.ref_year,
        table: r.table_id,
        unit: r.unit,
        fetchedAt: new Date(r.fetched_at).toISOString(),
      }));
    },

    /** The table records of one country (what each figure's table is, its licence and URL). */
    async tables(country: string): Promise<StatisticsTableRow[]> {
      const rows = await db
        .selectFrom('statistics_tables')
        .selectAll()
        .where('country', '=', country)
        .orderBy('scope')
        .orderBy('measure')
        .execute();
      return rows.map((r) => ({
        scope: r.scope as StatisticsTableRow['scope'],
        measure: r.measure,
        table: r.table_id,
        title: r.title,
        unit: r.unit,
        year: r.ref_year,
        source: r.source,
        licence: r.licence,
        url: r.url,
        updated: r.updated,
        unavailable: r.unavailable,
        fetchedAt: new Date(r.fetched_at).toISOString(),
      }));
    },
  };
}

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
