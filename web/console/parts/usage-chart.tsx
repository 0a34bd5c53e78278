// Requests per day over the last 30 days as a uPlot bar chart, with the numbers in a table.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatInteger } from '../format.ts';

export function UsageChart(props: { history: { day: string; count: number }[] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el || props.history.length === 0) return;
    const xs = props.history.map((_, i) => i);
    const bars = uPlot.paths.bars!({ size: [0.7, 40] });
    const plot = new uPlot(
      {
        width: Math.max(280, Math.min(el.clientWidth || 640, 900)),
        height: 220,
        scales: { x: { time: false } },
        axes: [
          { values: (_u, ticks) => ticks.map((t) => props.history[t]?.day.slice(5) ?? '') },
          { label: 'Requests', values: (_u, ticks) => ticks.map((t) => formatInteger(t)) },
        ],
        series: [
          { label: 'Day' },
          { label: 'Requests', stroke: '#1f6feb', fill: 'rgba(31,111,235,0.35)', paths: bars, points: { show: false } },
        ],
      },
      [xs, props.history.map((d) => d.count)],
      el,
    );
    return () => plot.destroy();
  }, [props.history]);
  return <div ref={host} class="chart usage-chart" role="img" aria-label="Requests per day, last 30 days" />;
}
