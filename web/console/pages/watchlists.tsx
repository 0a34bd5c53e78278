// Watchlists: create one for a destination, add companies found by search, see its members and
// delivery log, pause and resume.
import { useState } from 'preact/hooks';
import { EVENT_CATEGORIES as CATEGORIES } from '../../../src/domain/company-events.ts';
import { api, describeError } from '../api.ts';
import { formatDateTime, formatInteger } from '../format.ts';
import { RequestBuilder } from '../parts/request-builder.tsx';
import { Empty, Loaded, Section } from '../parts/section.tsx';
import { useLoad } from '../parts/use-load.ts';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies, read field by field

function CreateForm(props: { destinations: string[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [destination, setDestination] = useState(props.destinations[0] ?? '');
  const [categories, setCategories] = useState<string[]>(['status', 'roles']);
  const [status, setStatus] = useState<string | null>(null);
  if (props.destinations.length === 0)
    return <Empty>Create a destination first: a watchlist sends its alerts there.</Empty>;
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await api()!.request('post', '/api/watchlists', { body: { name, destination, categories } as never });
      setStatus(`Watchlist ${name} created.`);
      setName('');
      props.onCreated();
    } catch (err) {
      setStatus(describeError(err));
    }
  };
  return (
    <form onSubmit={submit} class="stack">
      <label for="w-name">Name</label>
      <input
        id="w-name"
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
        required
        pattern="[A-Za-z0-9._~\-]+"
      />
      <label for="w-dest">Destination</label>
      <select id="w-dest" value={destination} onChange={(e) => setDestination((e.target as HTMLSelectElement).value)}>
        {props.destinations.map((d) => (
          <option key={d}>{d}</option>
        ))}
      </select>
      <fieldset>
        <legend>Alert on</legend>
        {CATEGORIES.map((c) => (
          <label key={c} class="check">
            <input
              type="checkbox"
              checked={categories.includes(c)}
              onChange={(e) =>
                setCategories(
                  (e.target as HTMLInputElement).checked ? [...categories, c] : categories.filter((x) => x !== c),
                )
              }
            />{' '}
            {c}
          </label>
        ))}
      </fieldset>
      <button type="submit">Create watchlist</button>
      {status && <p role="status">{status}</p>}
    </form>
  );
}

function AddCompanies(props: { name: string; onAdded: () => void }) {
  const [q, setQ] = useState('');
  const [rows, setRows] = useState<Any[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  const find = async (e: Event) => {
    e.preventDefault();
    try {
      const page = (await api()!.request('get', '/api/companies', { query: { q, limit: 10 } as never })) as Any;
      setRows(page.data);
      if (page.data.length === 0) setStatus('No company matches that name.');
    } catch (err) {
      setStatus(describeError(err));
    }
  };
  const add = async (r: Any) => {
    try {
      const res = (await api()!.request('post', '/api/watchlists/{name}/companies', {
        params: { name: props.name },
        body: { companies: [{ orgNumber: r.orgNumber, country: r.country }] } as never,
      })) as Any;
      setStatus(`${r.name} added (${res.companyCount} of at most ${formatInteger(res.maxCompanies)}).`);
      props.onAdded();
    } catch (err) {
      setStatus(describeError(err));
    }
  };
  return (
    <div>
      <form onSubmit={find} class="inline" role="search">
        <label for={`s-${props.name}`}>Find a company to add</label>
        <input
          id={`s-${props.name}`}
          type="search"
          value={q}
          onInput={(e) => setQ((e.target as HTMLInputElement).value)}
          required
        />
        <button type="submit">Search</button>
      </form>
      {rows.length > 0 && (
        <ul>
          {rows.map((r) => (
            <li key={`${r.country}:${r.orgNumber}`}>
              {`${r.name} (${r.orgNumber} ${r.country}) `}
              <button type="button" onClick={() => add(r)} aria-label={`Add ${r.name}`}>
                Add
              </button>
            </li>
          ))}
        </ul>
      )}
      {status && <p role="status">{status}</p>}
    </div>
  );
}

function Deliveries(props: { name: string; round: number }) {
  const [load] = useLoad(
    () =>
      api()!.request('get', '/api/watchlists/{name}/deliveries', {
        params: { name: props.name },
        query: { limit: 20 } as never,
      }) as Promise<Any>,
    [props.name, props.round],
  );
  return (
    <Loaded load={load}>
      {(b) =>
        b.data.length ? (
          <table class="figures deliveries">
            <caption>Delivery log</caption>
            <thead>
              <tr>
                <th scope="col">Batch</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Delivered</th>
              </tr>
            </thead>
            <tbody>
              {b.data.map((d: Any) => (
                <tr key={d.webhookId}>
                  <td>{`${d.fromSeq}–${d.toSeq}`}</td>
                  <td>{d.eventCount}</td>
                  <td
                    class={`delivery ${d.status}`}
                  >{`${d.status}${d.lastStatus ? ` (${d.lastStatus})` : ''}${d.lastError ? `: ${d.lastError}` : ''}`}</td>
                  <td>{d.attempts}</td>
                  <td>{formatDateTime(d.deliveredAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty>No alert has been sent yet: a batch goes out when a watched company changes.</Empty>
        )
      }
    </Loaded>
  );
}

function Card(props: { w: Any; onChanged: () => void }) {
  const { w } = props;
  const [round, setRound] = useState(0);
  const [status, setStatus] = useState<string | null>(null);
  const togglePause = async () => {
    try {
      await api()!.request('put', '/api/watchlists/{name}', {
        params: { name: w.name },
        body: { paused: !w.paused } as never,
      });
      props.onChanged();
    } catch (err) {
      setStatus(describeError(err));
    }
  };
  return (
    <li class="card">
      <h3>{w.name}</h3>
      <p class="muted">
        {`${formatInteger(w.companyCount)} companies · alerts on ${w.categories.join(', ')} → ${w.destination} · `}
        <strong>{w.paused ? `paused${w.pausedReason ? ` (${w.pausedReason})` : ''}` : 'active'}</strong>
      </p>
      <button type="button" onClick={togglePause}>
        {w.paused ? 'Resume' : 'Pause'}
      </button>{' '}
      <button type="button" onClick={() => setRound((r) => r + 1)}>
        Refresh log
      </button>
      {status && <p role="status">{status}</p>}
      <AddCompanies name={w.name} onAdded={props.onChanged} />
      <Deliveries name={w.name} round={round} />
    </li>
  );
}

export function Watchlists() {
  const [load, reload] = useLoad(async () => {
    const [lists, dests] = await Promise.all([api()!.request('get', '/api/watchlists'), api()!.destinations.list()]);
    return { lists: lists as Any, destinations: (dests as Any).data.map((d: Any) => d.name as string) };
  }, []);
  return (
    <main id="main">
      <h1>Watchlists</h1>
      <Loaded load={load}>
        {(b) => (
          <>
            <Section id="lists" title="Your watchlists">
              {b.lists.data.length ? (
                <ul class="cards">
                  {b.lists.data.map((w: Any) => (
                    <Card w={w} key={w.name} onChanged={reload} />
                  ))}
                </ul>
              ) : (
                <Empty>No watchlist yet.</Empty>
              )}
            </Section>
            <Section id="create" title="New watchlist">
              <CreateForm destinations={b.destinations} onCreated={reload} />
            </Section>
          </>
        )}
      </Loaded>
      <RequestBuilder
        request={{ method: 'GET', path: '/api/watchlists', client: "client.request('get', '/api/watchlists')" }}
      />
    </main>
  );
}
