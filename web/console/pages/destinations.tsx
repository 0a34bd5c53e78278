// Destinations: list, create (a webhook, or a HubSpot or Attio connection), send a test push,
// delete. Secrets and tokens are write-only: the API never serves them back, and the form
// clears them once sent.
import { useState } from 'preact/hooks';
import { api, describeError } from '../api.ts';
import { formatDateTime } from '../format.ts';
import { RequestBuilder } from '../parts/request-builder.tsx';
import { Empty, Loaded, Section } from '../parts/section.tsx';
import { useLoad } from '../parts/use-load.ts';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies, read field by field
type Kind = 'webhook' | 'hubspot' | 'attio';

function configOf(kind: Kind, url: string, secret: string): Any {
  if (kind === 'webhook') return secret ? { url, signingSecret: secret } : { url };
  if (kind === 'hubspot') return { accessToken: secret };
  return { apiKey: secret };
}

function CreateForm(props: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('webhook');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await api()!.destinations.create({ name, type: kind, config: configOf(kind, url, secret) } as never);
      setStatus(`Destination ${name} created.`);
      setName('');
      setUrl('');
      setSecret('');
      props.onCreated();
    } catch (err) {
      setStatus(describeError(err));
    }
  };
  const secretLabel =
    kind === 'webhook'
      ? 'Signing secret (optional)'
      : kind === 'hubspot'
        ? 'Private-app access token'
        : 'Attio API token';
  return (
    <form onSubmit={submit} class="stack">
      <label for="d-name">Name</label>
      <input
        id="d-name"
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
        required
        pattern="[A-Za-z0-9._~\-]+"
      />
      <label for="d-type">Type</label>
      <select id="d-type" value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as Kind)}>
        <option value="webhook">Webhook</option>
        <option value="hubspot">HubSpot</option>
        <option value="attio">Attio</option>
      </select>
      {kind === 'webhook' && (
        <>
          <label for="d-url">URL</label>
          <input
            id="d-url"
            type="url"
            value={url}
            onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
            required
          />
        </>
      )}
      <label for="d-secret">{secretLabel}</label>
      <input
        id="d-secret"
        type="password"
        autocomplete="off"
        value={secret}
        onInput={(e) => setSecret((e.target as HTMLInputElement).value)}
        required={kind !== 'webhook'}
      />
      <button type="submit">Create destination</button>
      {status && <p role="status">{status}</p>}
    </form>
  );
}

function Row(props: { d: Any; onChanged: () => void }) {
  const { d } = props;
  const [org, setOrg] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const test = async (e: Event) => {
    e.preventDefault();
    try {
      const r = (await api()!.push(d.name, [org.trim()])) as Any;
      setStatus(
        `Test push: ${JSON.stringify(r.created !== undefined ? { created: r.created, updated: r.updated, skipped: r.skipped, failed: r.failed } : r)}`,
      );
    } catch (err) {
      setStatus(describeError(err));
    }
  };
  const remove = async () => {
    if (!confirm(`Delete destination ${d.name}?`)) return;
    try {
      await api()!.destinations.delete(d.name);
      props.onChanged();
    } catch (err) {
      setStatus(describeError(err));
    }
  };
  return (
    <li class="card">
      <h3>{d.name}</h3>
      <p class="muted">{`${d.type} · ${d.isActive ? 'active' : 'inactive'} · ${d.config?.url ?? d.config?.portalId ?? d.config?.workspaceSlug ?? ''} · created ${formatDateTime(d.createdAt)}`}</p>
      {(d.warnings ?? []).map((w: string) => (
        <p class="note" key={w}>
          {w}
        </p>
      ))}
      <form onSubmit={test} class="inline">
        <label for={`t-${d.name}`}>Organisation number to send</label>
        <input
          id={`t-${d.name}`}
          value={org}
          onInput={(e) => setOrg((e.target as HTMLInputElement).value)}
          required
          inputMode="numeric"
        />
        <button type="submit">Send test push</button>
        <button type="button" class="danger" onClick={remove}>
          Delete
        </button>
      </form>
      {status && <p role="status">{status}</p>}
    </li>
  );
}

export function Destinations() {
  const [load, reload] = useLoad(() => api()!.destinations.list() as Promise<Any>, []);
  return (
    <main id="main">
      <h1>Destinations</h1>
      <Section id="list" title="Your destinations">
        <Loaded load={load}>
          {(b) =>
            b.data.length ? (
              <ul class="cards">
                {b.data.map((d: Any) => (
                  <Row d={d} key={d.name} onChanged={reload} />
                ))}
              </ul>
            ) : (
              <Empty>No destination yet. Create one below; watchlists send their alerts to it.</Empty>
            )
          }
        </Loaded>
      </Section>
      <Section id="create" title="New destination">
        <CreateForm onCreated={reload} />
      </Section>
      <RequestBuilder request={{ method: 'GET', path: '/api/destinations', client: 'client.destinations.list()' }} />
    </main>
  );
}
