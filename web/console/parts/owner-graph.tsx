// Owners as a graph: the company at the bottom, each owner one layer up per hop of the chain,
// laid out by d3-force (links pull, nodes repel, each layer is held to its row) and drawn as SVG
// with a text list beside it, so the picture is never the only way to read the chain.
import { useMemo } from 'preact/hooks';
import {
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  type SimulationNodeDatum,
} from 'd3-force';

export interface OwnerNode {
  id: string;
  label: string;
  layer: number;
  kind: 'subject' | 'company' | 'person' | 'other';
}

export interface OwnerLink {
  source: string;
  target: string;
  pct: number | null;
}

interface Placed extends SimulationNodeDatum, OwnerNode {}

const WIDTH = 720;
const ROW = 110;

function layout(nodes: OwnerNode[], links: OwnerLink[]) {
  const layers = Math.max(0, ...nodes.map((n) => n.layer));
  const height = (layers + 1) * ROW + 40;
  const placed: Placed[] = nodes.map((n, i) => ({
    ...n,
    x: WIDTH / 2 + (i % 7) * 30 - 90,
    y: height - 40 - n.layer * ROW,
  }));
  const byId = new Map(placed.map((n) => [n.id, n]));
  const simLinks = links.filter((l) => byId.has(l.source) && byId.has(l.target)).map((l) => ({ ...l }));
  const sim = forceSimulation(placed)
    .force(
      'link',
      forceLink(simLinks)
        .id((d) => (d as Placed).id)
        .distance(ROW)
        .strength(0.4),
    )
    .force('charge', forceManyBody().strength(-400))
    .force('collide', forceCollide(70))
    .force('x', forceX(WIDTH / 2).strength(0.05))
    .force('y', forceY<Placed>((d) => height - 40 - d.layer * ROW).strength(1))
    .stop();
  // A fixed number of ticks: the same input draws the same picture (screenshots compare).
  for (let i = 0; i < 300; i++) sim.tick();
  for (const n of placed) n.x = Math.max(80, Math.min(WIDTH - 80, n.x ?? WIDTH / 2));
  return { placed, byId, height };
}

export function OwnerGraph(props: { nodes: OwnerNode[]; links: OwnerLink[]; title: string }) {
  const { placed, byId, height } = useMemo(() => layout(props.nodes, props.links), [props.nodes, props.links]);
  return (
    <figure class="owner-graph">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={props.title}>
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" class="arrow" />
          </marker>
        </defs>
        {props.links.map((l) => {
          const s = byId.get(l.source);
          const t = byId.get(l.target);
          if (!s || !t) return null;
          const mx = ((s.x ?? 0) + (t.x ?? 0)) / 2;
          const my = ((s.y ?? 0) + (t.y ?? 0)) / 2;
          return (
            <g key={`${l.source}>${l.target}`}>
              <line x1={s.x} y1={(s.y ?? 0) + 16} x2={t.x} y2={(t.y ?? 0) - 18} class="edge" marker-end="url(#arrow)" />
              {l.pct !== null && (
                <text x={mx + 6} y={my} class="edge-label">
                  {`${l.pct.toLocaleString('nb-NO', { maximumFractionDigits: 2 })} %`}
                </text>
              )}
            </g>
          );
        })}
        {placed.map((n) => (
          <g key={n.id} class={`node ${n.kind}`} transform={`translate(${n.x},${n.y})`}>
            <rect x={-75} y={-16} width={150} height={32} rx={6} />
            <text text-anchor="middle" dy="0.35em">
              {n.label.length > 22 ? `${n.label.slice(0, 21)}…` : n.label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>{props.title}</figcaption>
    </figure>
  );
}
