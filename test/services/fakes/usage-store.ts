// Quota counters in memory with the rules of the one conditional UPDATE (store/access/usage.ts):
// checked and counted in one step, limits of 0 unlimited, a day or month that has moved on starts
// from zero, and every counted request lands in the per-day history.
import type { UsageRepository } from '../../../src/store/access/usage.ts';

type UsageCounts = Awaited<ReturnType<UsageRepository['read']>>;
type ConsumeResult = Awaited<ReturnType<UsageRepository['consume']>>;
type DailyCount = Awaited<ReturnType<UsageRepository['history']>>[number];

export class FakeUsage implements UsageRepository {
  /** Calls of `add` (the unmetered batch writes) and `consume`, in order. */
  readonly writes: { op: 'add' | 'consume'; projectId: number; n: number }[] = [];
  private readonly rows = new Map<
    number,
    { day: string; dayCount: number; month: string; monthCount: number; total: number }
  >();
  private readonly daily = new Map<string, number>();

  open(projectId: number, day: string, month: string) {
    this.rows.set(projectId, { day, dayCount: 0, month, monthCount: 0, total: 0 });
  }

  total(projectId: number): number {
    return this.rows.get(projectId)?.total ?? 0;
  }

  private bump(projectId: number, today: string, monthStart: string, n: number, daily: number, monthly: number) {
    const r = this.rows.get(projectId);
    if (!r) return undefined;
    if (daily !== 0 && r.day >= today && r.dayCount >= daily) return undefined;
    if (monthly !== 0 && r.month >= monthStart && r.monthCount >= monthly) return undefined;
    r.dayCount = r.day >= today ? r.dayCount + n : n;
    r.day = r.day > today ? r.day : today;
    r.monthCount = r.month >= monthStart ? r.monthCount + n : n;
    r.month = r.month > monthStart ? r.month : monthStart;
    r.total += n;
    const key = `${projectId}:${r.day}`;
    this.daily.set(key, (this.daily.get(key) ?? 0) + n);
    return { today: r.dayCount, thisMonth: r.monthCount, total: r.total };
  }

  async read(projectId: number, today: string, monthStart: string): Promise<UsageCounts> {
    const r = this.rows.get(projectId);
    if (!r) return { today: 0, thisMonth: 0, total: 0 };
    return {
      today: r.day === today ? r.dayCount : 0,
      thisMonth: r.month === monthStart ? r.monthCount : 0,
      total: r.total,
    };
  }

  async add(projectId: number, day: string, monthStart: string, n: number): Promise<void> {
    this.writes.push({ op: 'add', projectId, n });
    this.bump(projectId, day, monthStart, n, 0, 0);
  }

  async history(projectId: number, fromDay: string, toDay: string): Promise<DailyCount[]> {
    return [...this.daily.entries()]
      .map(([k, count]) => ({ project: Number(k.split(':')[0]), day: k.split(':')[1], count }))
      .filter((d) => d.project === projectId && d.day >= fromDay && d.day <= toDay)
      .sort((a, b) => a.day.localeCompare(b.day))
      .map(({ day, count }) => ({ day, count }));
  }

  async consume(
    projectId: number,
    today: string,
    monthStart: string,
    daily: number,
    monthly: number,
  ): Promise<ConsumeResult> {
    this.writes.push({ op: 'consume', projectId, n: 1 });
    const r = this.bump(projectId, today, monthStart, 1, daily, monthly);
    if (r) return { ok: true, ...r };
    const counts = await this.read(projectId, today, monthStart);
    return { ok: false, exhausted: monthly !== 0 && counts.thisMonth >= monthly ? 'monthly' : 'daily', ...counts };
  }
}
