// The parts of a company page that come from their own operations: ultimate owners (with the
// owner graph), the group tree, licences and inspections, procurement, market context,
// screening and the timeline of events. Each reads only where the API serves that country.
import type { ComponentChildren } from 'preact';
import { api } from '../api.ts';
import { formatDate, formatDecimal, formatInteger, formatMoney, formatPct } from '../format.ts';
import { OwnerGraph, type OwnerLink, type OwnerNode } from '../parts/owner-graph.tsx';
import { Empty, Loaded, Section } from '../parts/section.tsx';
import { Timeline, type TimelineEvent } from '../parts/timeline.tsx';
import { useLoad } from '../parts/use-load.ts';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies, read field by field

interface Props {
  rec: Any & { orgNumber: string; country: string };
}

/** A section that only exists for some countries says so instead of reading. */
function ForCountries(props: { countries: string[]; country: string; what: string; children: ComponentChildren }) {
  if (props.countries.includes(props.country)) return <>{props.children}</>;
  return <Empty>{`${props.what} is available for ${props.countries.join(' and ')} companies only.`}</Empty>;
}

function graphOf(body: Any): { nodes: OwnerNode[]; links: OwnerLink[] } {
  const nodes = new Map<string, OwnerNode>();
  const links = new Map<string, OwnerLink>();
  const subject = `${body.country}:${body.orgNumber}`;
  nodes.set(subject, { id: subject, label: body.name ?? body.orgNumber, layer: 0, kind: 'subject' });
  for (const c of body.candidates ?? []) {
    for (const path of c.paths ?? []) {
      let below = subject;
      path.forEach((hop: Any, i: number) => {
        const id = hop.orgNumber
          ? `${hop.country ?? ''}:${hop.orgNumber}`
          : `${hop.kind}:${hop.name}:${hop.birthYear ?? ''}`;
        const kind = hop.kind === 'person' ? 'person' : hop.kind === 'company' ? 'company' : 'other';
        const prev = nodes.get(id);
        nodes.set(id, {
          id,
          label: hop.name ?? hop.orgNumber ?? 'unknown',
          layer: Math.max(prev?.layer ?? 0, i + 1),
          kind,
        });
        links.set(`${id}>${below}`, { source: id, target: below, pct: hop.pct ?? null });
        below = id;
      });
    }
  }
  return { nodes: [...nodes.values()], links: [...links.values()] };
}

function Owners(props: Props) {
  const { orgNumber, country } = props.rec;
  const [load] = useLoad(
    () =>
      api()!.request('get', '/api/companies/{orgNumber}/owners', {
        params: { orgNumber },
        query: { country, includePersons: true, threshold: 0 } as never,
      }) as Promise<Any>,
    [orgNumber, country],
  );
  return (
    <Loaded load={load}>
      {(body) => {
        const candidates: Any[] = body.candidates ?? [];
        if (candidates.length === 0)
          return <Empty>{body.message ?? 'No owners are known in the shareholder register.'}</Empty>;
        const { nodes, links } = graphOf({ ...body, name: props.rec.name });
        return (
          <>
            <OwnerGraph
              nodes={nodes}
              links={links}
              title={`Ownership chains of ${props.rec.name}, from the shareholder register`}
            />
            <table class="figures">
              <caption>
                Ultimate-owner candidates (derived from the shareholder register, not the beneficial-owner register)
              </caption>
              <thead>
                <tr>
                  <th scope="col">Owner</th>
                  <th scope="col" class="num">
                    Effective share
                  </th>
                  <th scope="col">Controls</th>
                  <th scope="col">Path</th>
                  <th scope="col">Stopped</th>
                </tr>
              </thead>
              <tbody>
                {candidates.map((c, i) => (
                  <tr key={i}>
                    <td>{`${c.name ?? 'unknown'}${c.birthYear ? ` (born ${c.birthYear})` : ''}`}</td>
                    <td class="num">
                      {c.effectivePct !== null && c.effectivePct !== undefined
                        ? formatPct(c.effectivePct)
                        : c.effectivePctRange
                          ? `${formatDecimal(c.effectivePctRange.low)}–${formatPct(c.effectivePctRange.high)}`
                          : '–'}
                    </td>
                    <td>{c.controls === null ? '–' : c.controls ? 'yes' : 'no'}</td>
                    <td>
                      {(c.paths?.[0] ?? [])
                        .map((h: Any) => `${h.name ?? h.orgNumber} (${h.pct === null ? 'band' : formatPct(h.pct)})`)
                        .join(' → ')}
                    </td>
                    <td>{c.stopReason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="muted">
              {`Untraced: ${formatPct(body.untracedPct)} · layers ${body.flags?.layers ?? '–'} · jurisdictions ${body.flags?.jurisdictions ?? '–'} · complex structure: ${body.flags?.complexStructure === null || body.flags?.complexStructure === undefined ? 'cannot tell' : body.flags.complexStructure ? 'yes' : 'no'}`}
            </p>
          </>
        );
      }}
    </Loaded>
  );
}

function GroupNode(props: { node: Any }) {
  const n = props.node;
  return (
    <li>
      <span>{`${n.name} (${n.orgNumber})`}</span>
      {n.children?.length > 0 && (
        <ul>
          {n.children.map((c: Any) => (
            <GroupNode node={c} key={c.orgNumber} />
          ))}
        </ul>
      )}
    </li>
  );
}

function Group(props: Props) {
  const { orgNumber, country } = props.rec;
  const [load] = useLoad(
    () =>
      api()!.request('get', '/api/companies/{orgNumber}/group', {
        params: { orgNumber },
        query: { country } as never,
      }) as Promise<Any>,
    [orgNumber, country],
  );
  return (
    <Loaded load={load}>
      {(body) =>
        body.totalMembers > 1 ? (
          <ul class="tree">
            <GroupNode node={body.root} />
          </ul>
        ) : (
          <Empty>This company is in no group the register shows.</Empty>
        )
      }
    </Loaded>
  );
}

function Registers(props: Props) {
  const { orgNumber } = props.rec;
  const [licences] = useLoad(
    () => api()!.request('get', '/api/licenses', { query: { orgNumber } as never }) as Promise<Any>,
    [orgNumber],
  );
  const [visits] = useLoad(
    () => api()!.request('get', '/api/inspections', { query: { orgNumber } as never }) as Promise<Any>,
    [orgNumber],
  );
  return (
    <>
      <h3>Licences</h3>
      <Loaded load={licences}>
        {(b) =>
          b.data.length ? (
            <ul>
              {b.data.map((l: Any) => (
                <li
                  key={l.id}
                >{`${l.licenseTypeDescription ?? l.registerType} · ${l.venueName ?? ''} · valid from ${formatDate(l.validFrom)}`}</li>
              ))}
            </ul>
          ) : (
            <Empty>No licence in the register names this company.</Empty>
          )
        }
      </Loaded>
      <h3>Food-safety inspections</h3>
      <Loaded load={visits}>
        {(b) =>
          b.data.length ? (
            <ul>
              {b.data.map((v: Any) => (
                <li key={v.id}>{`${formatDate(v.date)} · ${v.name} · rating ${v.totalRating}`}</li>
              ))}
            </ul>
          ) : (
            <Empty>No inspection of this company is recorded.</Empty>
          )
        }
      </Loaded>
    </>
  );
}

function Procurement(props: Props) {
  const { orgNumber } = props.rec;
  const [load] = useLoad(
    () => api()!.request('get', '/api/procurement', { query: { orgNumber } as never }) as Promise<Any>,
    [orgNumber],
  );
  return (
    <Loaded load={load}>
      {(b) =>
        b.data.length ? (
          <ul>
            {b.data.map((n: Any) => (
              <li key={n.noticeId}>
                <a href={n.url} rel="noopener noreferrer" target="_blank">
                  {n.title}
                </a>
                {` · ${n.noticeType} · ${formatDate(n.publishedDate)} · ${formatMoney(n.estimatedValue ?? n.awardedValue, n.currency)}`}
              </li>
            ))}
          </ul>
        ) : (
          <Empty>No procurement notice names this company as buyer or winner.</Empty>
        )
      }
    </Loaded>
  );
}

/** Every figure object of a market-context part: `{value, unit, year, table, …}`. */
function figures(part: Any | null): [string, Any][] {
  if (!part) return [];
  return Object.entries(part).filter(([, v]) => v && typeof v === 'object' && ('value' in v || 'unavailable' in v)) as [
    string,
    Any,
  ][];
}

function Market(props: Props) {
  const { country } = props.rec;
  const municipality = props.rec.businessAddressMuniNo as string | undefined;
  const nace = typeof props.rec.naceCode1 === 'string' ? props.rec.naceCode1.slice(0, 2) : undefined;
  const [load] = useLoad(
    () =>
      api()!.request('get', '/api/market-context', { query: { country, municipality, nace } as never }) as Promise<Any>,
    [country, municipality, nace],
  );
  return (
    <Loaded load={load}>
      {(b) => {
        const rows = [...figures(b.municipality), ...figures(b.industry)];
        if (rows.length === 0)
          return <Empty>The statistics bureau's figures for this place and industry are not loaded.</Empty>;
        return (
          <dl class="facts">
            {rows.map(([name, f]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>
                  {f.value === null || f.value === undefined
                    ? (f.reason ?? 'unavailable')
                    : `${formatDecimal(f.value)} ${f.unit ?? ''}`}
                  <span class="muted">{[f.year, f.table, f.level, f.licence].filter(Boolean).join(' · ')}</span>
                </dd>
              </div>
            ))}
          </dl>
        );
      }}
    </Loaded>
  );
}

function Screening(props: Props) {
  const { orgNumber, country } = props.rec;
  const [load] = useLoad(
    () =>
      api()!.request('get', '/api/screening/{orgNumber}', {
        params: { orgNumber },
        query: { country } as never,
      }) as Promise<Any>,
    [orgNumber, country],
  );
  return (
    <Loaded load={load}>
      {(b) => (
        <>
          <p>
            {`${formatInteger(b.summary.subjectsScreened)} subjects screened against ${b.summary.listsChecked} list(s): ${b.summary.possibleMatches} possible match(es).`}
            {b.message ? ` ${b.message}` : ''}
          </p>
          {b.matches.length > 0 && (
            <ul class="matches">
              {b.matches.map((m: Any, i: number) => {
                const subject = b.subjects.find((s: Any) => s.id === m.subject);
                return (
                  <li key={i}>
                    <strong>{subject?.name ?? m.subject}</strong>
                    {` ~ ${m.entityName} (${m.topics.join(', ')}; score ${formatDecimal(m.score)}, ${m.matchType})`}
                    <p class="muted">
                      {(m.explanation?.tokens ?? []).map((t: Any) => `${t.query}→${t.candidate} (${t.how})`).join(', ')}
                      {(m.explanation?.adjustments ?? []).map((a: Any) => ` · ${a.reason}`).join('')}
                    </p>
                  </li>
                );
              })}
            </ul>
          )}
          <p class="muted">
            {b.lists.map((l: Any) => `${l.name} ${l.version ?? ''} (synced ${formatDate(l.lastSync)})`).join('; ')}
          </p>
        </>
      )}
    </Loaded>
  );
}

const show = (v: unknown) =>
  v === null || v === undefined ? '–' : typeof v === 'object' ? JSON.stringify(v) : String(v);

function Events(props: Props) {
  const { orgNumber, country } = props.rec;
  const [load] = useLoad(
    () => api()!.request('get', '/api/events', { query: { orgNumber, country, limit: 100 } as never }) as Promise<Any>,
    [orgNumber, country],
  );
  return (
    <Loaded load={load}>
      {(b) => {
        const events: TimelineEvent[] = [...b.data].reverse().map((e: Any) => ({
          seq: e.seq,
          category: e.category,
          occurredAt: e.occurredAt,
          source: e.source,
          changes: (e.fieldsChanged as string[]).map((f) => `${f}: ${show(e.before[f])} → ${show(e.after[f])}`),
        }));
        return events.length ? (
          <Timeline events={events} />
        ) : (
          <Empty>No change to this company has been recorded since the event log began.</Empty>
        );
      }}
    </Loaded>
  );
}

export function CompanySections(props: Props) {
  const { country } = props.rec;
  return (
    <>
      <Section id="owners" title="Owners">
        <ForCountries countries={['NO', 'DK']} country={country} what="The shareholder register">
          <Owners rec={props.rec} />
        </ForCountries>
      </Section>
      <Section id="group" title="Group">
        <Group rec={props.rec} />
      </Section>
      <Section id="registers" title="Licences and inspections">
        <ForCountries countries={['NO']} country={country} what="The licence and inspection registers">
          <Registers rec={props.rec} />
        </ForCountries>
      </Section>
      <Section id="procurement" title="Procurement">
        <ForCountries countries={['NO']} country={country} what="Procurement by organisation number">
          <Procurement rec={props.rec} />
        </ForCountries>
      </Section>
      <Section id="market" title="Market context">
        <Market rec={props.rec} />
      </Section>
      <Section id="screening" title="Screening">
        <Screening rec={props.rec} />
      </Section>
      <Section id="timeline" title="Timeline">
        <Events rec={props.rec} />
      </Section>
    </>
  );
}
