// Usage with a chart, the limits and when they reset, and key rotation with a confirmation.
import { useState } from 'preact/hooks';
import { api, describeError } from '../api.ts';
import { formatDateTime, formatInteger } from '../format.ts';
import { RequestBuilder } from '../parts/request-builder.tsx';
import { Loaded, Section } from '../parts/section.tsx';
import { UsageChart } from '../parts/usage-chart.tsx';
import { useLoad } from '../parts/use-load.ts';
import { storeKey } from '../session.ts';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies, read field by field

function Rotate(props: { onRotated: () => void }) {
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<string | null>(null);
  const rotate = async () => {
    try {
      const r = (await api()!.keys.rotate()) as Any;
      storeKey(r.raw);
      // Never written into the page: the user copies it to the clipboard with a button.
      setNewKey(r.raw);
      setMessage(
        `Key ${r.rotatedFrom}… no longer works. The new key (prefix ${r.keyPrefix}) is now used by this console.`,
      );
      props.onRotated();
    } catch (err) {
      setMessage(describeError(err));
    } finally {
      setAsking(false);
    }
  };
  return (
    <div>
      {!asking && (
        <button type="button" onClick={() => setAsking(true)}>
          Rotate key…
        </button>
      )}
      {asking && (
        <div role="alertdialog" aria-labelledby="rotate-q" class="confirm">
          <p id="rotate-q">The current key stops working at once, everywhere it is used. Rotate it?</p>
          <button type="button" class="danger" onClick={rotate}>
            Yes, rotate the key
          </button>{' '}
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </div>
      )}
      {message && (
        <p role="status" id="rotate-status">
          {message}
        </p>
      )}
      {newKey && (
        <p>
          <button
            type="button"
            onClick={() =>
              navigator.clipboard?.writeText(newKey).then(
                () => setNewKey(null),
                () => undefined,
              )
            }
          >
            Copy the new key
          </button>{' '}
          <span class="muted">It is kept only in this tab; copy it now into your tools.</span>
        </p>
      )}
    </div>
  );
}

export function Usage() {
  const [load, reload] = useLoad(() => api()!.keys.usage() as Promise<Any>, []);
  return (
    <main id="main">
      <h1>Usage and key</h1>
      <Loaded load={load}>
        {(u) => (
          <>
            <p>
              Project <strong id="project-name">{u.projectName}</strong> · tier <strong id="tier">{u.tier}</strong> ·
              key <code id="key-prefix">{u.keyPrefix}…</code>
            </p>
            <Section id="usage" title="Requests">
              <dl class="facts">
                <div>
                  <dt>Today</dt>
                  <dd id="usage-today">{formatInteger(u.usage.today)}</dd>
                </div>
                <div>
                  <dt>This month</dt>
                  <dd id="usage-month">{formatInteger(u.usage.thisMonth)}</dd>
                </div>
                <div>
                  <dt>Daily left</dt>
                  <dd>{u.usage.dailyRemaining === null ? 'unlimited' : formatInteger(u.usage.dailyRemaining)}</dd>
                </div>
                <div>
                  <dt>Monthly left</dt>
                  <dd>{u.usage.monthlyRemaining === null ? 'unlimited' : formatInteger(u.usage.monthlyRemaining)}</dd>
                </div>
              </dl>
              <UsageChart history={u.history ?? []} />
            </Section>
            <Section id="limits" title="Limits">
              <dl class="facts">
                <div>
                  <dt>Per minute</dt>
                  <dd>{formatInteger(u.limits.rateLimitPerMinute)}</dd>
                </div>
                <div>
                  <dt>Per day</dt>
                  <dd>{u.limits.dailyLimit === null ? 'unlimited' : formatInteger(u.limits.dailyLimit)}</dd>
                </div>
                <div>
                  <dt>Per month</dt>
                  <dd>{u.limits.monthlyLimit === null ? 'unlimited' : formatInteger(u.limits.monthlyLimit)}</dd>
                </div>
                <div>
                  <dt>Page size</dt>
                  <dd>{formatInteger(u.limits.maxPageSize)}</dd>
                </div>
                <div>
                  <dt>Daily reset</dt>
                  <dd>{formatDateTime(u.resets.daily)}</dd>
                </div>
                <div>
                  <dt>Monthly reset</dt>
                  <dd>{formatDateTime(u.resets.monthly)}</dd>
                </div>
              </dl>
            </Section>
          </>
        )}
      </Loaded>
      <Section id="rotate" title="Rotate the key">
        <Rotate onRotated={reload} />
      </Section>
      <RequestBuilder request={{ method: 'GET', path: '/api/keys/usage', client: 'client.keys.usage()' }} />
    </main>
  );
}
