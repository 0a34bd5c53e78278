// The request behind what is on screen, as curl and as a typed-client call, for a developer to
// copy. The key is never printed: both read it from NCD_API_KEY.
import { useState } from 'preact/hooks';

export interface ShownRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The typed client's call, e.g. `client.companies.get('923609016')`. */
  client: string;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlOf(req: ShownRequest, origin: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined && v !== '') q.set(k, String(v));
  const url = `${origin}${req.path}${q.size ? `?${q}` : ''}`;
  const lines = [`curl -sS ${req.method === 'GET' ? '' : `-X ${req.method} `}${shellQuote(url)}`];
  lines.push(`  -H "Authorization: Bearer $NCD_API_KEY"`);
  if (req.body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d ${shellQuote(JSON.stringify(req.body))}`);
  }
  return lines.join(' \\\n');
}

export function clientOf(req: ShownRequest, origin: string): string {
  return [
    `import { NcdClient } from '@nordic-company-data/client';`,
    `const client = new NcdClient({ baseUrl: '${origin}' }); // key from NCD_API_KEY`,
    `const result = await ${req.client};`,
  ].join('\n');
}

export function RequestBuilder(props: { request: ShownRequest }) {
  const [tab, setTab] = useState<'curl' | 'client'>('curl');
  const text = tab === 'curl' ? curlOf(props.request, location.origin) : clientOf(props.request, location.origin);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <details class="request-builder">
      <summary>Request for this view</summary>
      <div role="tablist" aria-label="Request format" class="tabs">
        {(['curl', 'client'] as const).map((t) => (
          <button
            type="button"
            role="tab"
            aria-selected={tab === t}
            class={tab === t ? 'tab active' : 'tab'}
            onClick={() => setTab(t)}
            key={t}
          >
            {t === 'curl' ? 'curl' : 'TypeScript client'}
          </button>
        ))}
      </div>
      <pre class="code" role="tabpanel" aria-label={tab === 'curl' ? 'curl command' : 'client call'}>
        <code>{text}</code>
      </pre>
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </details>
  );
}
