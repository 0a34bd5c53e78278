// Revenue, result and equity per filed year as a uPlot line chart (in millions of the filing's
// currency), with the same figures in a table below it for screen readers and exact values.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMillions } from '../format.ts';

export interface YearFigures {
  year: number;
  revenue: number | null;
  netResult: number | null;
  equity: number | null;
}

const SERIES = [
  { key: 'revenue', label: 'Revenue', stroke: '#1f6feb' },
  { key: 'netResult', label: 'Net result', stroke: '#2da44e' },
  { key: 'equity', label: 'Equity', stroke: '#bf8700' },
] as const;

export function FinancialChart(props: { years: YearFigures[]; currency: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el || props.years.length === 0) return;
    const years = [...props.years].sort((a, b) => a.year - b.year);
    const data: uPlot.AlignedData = [
      years.map((y) => y.year),
      ...SERIES.map((s) => years.map((y) => (y[s.key] === null ? null : y[s.key]! / 1e6))),
    ];
    const width = Math.max(280, Math.min(el.clientWidth || 640, 900));
    const plot = new uPlot(
      {
        width,
        height: 260,
        scales: { x: { time: false } },
        axes: [
          { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) },
          {
            label: `Million ${props.currency}`,
            size: 70,
            values: (_u, ticks) => ticks.map((t) => formatMillions(t * 1e6)),
          },
        ],
        series: [
          { label: 'Year' },
          ...SERIES.map((s) => ({ label: s.label, stroke: s.stroke, width: 2, points: { size: 6 } })),
        ],
      },
      data,
      el,
    );
    return () => plot.destroy();
  }, [props.years, props.currency]);
  return (
    <div
      ref={host}
      class="chart financial-chart"
      role="img"
      aria-label={`Revenue, net result and equity per year, in million ${props.currency}`}
    />
  );
}
