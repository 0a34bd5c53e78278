// The setup page's 30-day usage chart as inline SVG, drawn on the server: it needs no script,
// no chart library and no CSP exception, and a screen reader gets a text summary and a table.
import { escapeHtml } from './html.ts';

interface DayCount {
  day: string;
  count: number;
}

const W = 600;
const H = 180;
const PAD = { top: 22, right: 8, bottom: 36, left: 48 };

export function renderUsageChart(history: DayCount[]): string {
  const max = Math.max(1, ...history.map((d) => d.count));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, history.length);
  const barW = Math.max(1, slot * 0.7);
  const total = history.reduce((n, d) => n + d.count, 0);

  const bars = history
    .map((d, i) => {
      const h = (d.count / max) * plotH;
      const x = PAD.left + i * slot + (slot - barW) / 2;
      const y = PAD.top + plotH - h;
      // A zero day still gets a hairline so the 30 slots read as a time axis.
      const shown = d.count === 0 ? 1 : h;
      const bar = `<rect class="bar${d.count === 0 ? ' zero' : ''}" data-day="${escapeHtml(d.day)}" data-count="${d.count}" x="${x.toFixed(1)}" y="${(d.count === 0 ? PAD.top + plotH - 1 : y).toFixed(1)}" width="${barW.toFixed(1)}" height="${shown.toFixed(1)}"><title>${escapeHtml(d.day)}: ${d.count} requests</title></rect>`;
      // Each used day carries its number above the bar: no hovering needed to read it.
      if (d.count === 0) return bar;
      return `${bar}<text class="value" data-day="${escapeHtml(d.day)}" x="${(x + barW / 2).toFixed(1)}" y="${(y - 3).toFixed(1)}" text-anchor="middle">${d.count}</text>`;
    })
    .join('');

  const first = history[0]?.day ?? '';
  const last = history[history.length - 1]?.day ?? '';
  const axis = [
    `<line class="axis" x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${W - PAD.right}" y2="${PAD.top + plotH}"/>`,
    `<text class="label" x="${PAD.left - 6}" y="${PAD.top + 8}" text-anchor="end">${max}</text>`,
    `<text class="label" x="${PAD.left - 6}" y="${PAD.top + plotH}" text-anchor="end">0</text>`,
    `<text class="label" x="${PAD.left}" y="${H - 6}">${escapeHtml(first)}</text>`,
    `<text class="label" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">${escapeHtml(last)}</text>`,
    `<text class="axis-title" id="chart-x-title" x="${PAD.left + plotW / 2}" y="${H - 6}" text-anchor="middle">Day (UTC)</text>`,
    `<text class="axis-title" id="chart-y-title" transform="translate(12 ${PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">Requests</text>`,
  ].join('');

  const summary = `${total} requests in the last ${history.length} days, at most ${max === 1 && total === 0 ? 0 : max} on one day`;
  const rows = history.map((d) => `<tr><td>${escapeHtml(d.day)}</td><td>${d.count}</td></tr>`).join('');
  return `<figure class="chart">
<svg id="usage-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(summary)}" preserveAspectRatio="xMidYMid meet">${axis}${bars}</svg>
<figcaption>${escapeHtml(summary)} (UTC days).</figcaption>
<details><summary>Daily numbers</summary><table class="days"><thead><tr><th>Day (UTC)</th><th>Requests</th></tr></thead><tbody>${rows}</tbody></table></details>
</figure>`;
}
