// No registration lost to a crash (issue 20): 80 registrations in flight, the process SIGKILLed
// among them. Some answers arrive, some are lost after the project was committed, some requests
// never reached the database. After a restart every owner whose answer was lost registers again
// with the same name and e-mail and gets a working key: a name never committed in the answer, a
// committed one (never used) by e-mail to the project's address only — the answer is the 409 any
// caller gets, with no key in it. No name is lost, and each project has exactly one active key.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpReceiver } from '../fakes/smtp.ts';
import { TEST_SECRET } from '../helpers/env.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';
import { pause } from './load.ts';
import { Scenario } from './record.ts';
import { send, type WireResponse } from './wire.ts';

let db: TestDatabase | undefined;
let proc: ServerProcess | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>> | undefined;
afterAll(async () => {
  await proc?.stop('SIGKILL');
  await db?.drop();
  await smtp?.close();
});

/** The key in the newest setup mail to `to` (quoted-printable undone), if one arrived. */
function mailedKey(to: string): string | undefined {
  const mail = smtp!.messages.filter((m) => m.to.includes(to)).at(-1);
  const text = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
  return text && /setup\?key=(ncd_[A-Za-z0-9]+)/.exec(text)?.[1];
}

const REGISTRATIONS = 80;

describe('registration and SIGKILL', () => {
  it('every owner whose registration answer was lost can register the same name again', async () => {
    const s = new Scenario('crash: SIGKILL during 80 registrations', 6);
    db = await createTestDatabase();
    smtp = await startSmtpReceiver();
    const env = { ...db.env, SECRET_KEY: TEST_SECRET, TRUST_PROXY: 'true', SMTP_URL: smtp.url };
    proc = await startServerProcess(env, 240_000);
    const register = (url: string, i: number) =>
      send(`${url}/api/keys/register`, {
        method: 'POST',
        // one client network per owner: the registration limit (3 an hour) is not what is tested
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${i >> 8}.${i & 255}` },
        body: JSON.stringify({ projectName: `crash-${i}`, email: `owner-${i}@example.com` }),
        timeoutMs: 30_000,
      });

    const answers: (WireResponse | undefined)[] = new Array(REGISTRATIONS).fill(undefined);
    const inFlight = Array.from({ length: REGISTRATIONS }, (_, i) =>
      register(proc!.url, i).then(
        (r) => (answers[i] = r),
        () => undefined,
      ),
    );
    // kill once the first answers are back, while the rest are still in flight
    for (let t = 0; t < 2000 && !answers.some(Boolean); t += 2) await pause(2);
    await proc.stop('SIGKILL');
    await Promise.all(inFlight);
    const answered = answers.filter((a) => a?.status === 201).length;
    s.figure('answered before the kill', `${answered} of ${REGISTRATIONS}`);
    s.check(answered < REGISTRATIONS, 'every registration was answered before the kill (nothing was tested)');

    const c = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await c.connect();
    const committed = new Set(
      (await c.query<{ name: string }>(`SELECT name FROM projects WHERE name LIKE 'crash-%'`)).rows.map((r) => r.name),
    );
    const lostAfterCommit = answers.filter((a, i) => a?.status !== 201 && committed.has(`crash-${i}`)).length;
    s.figure('committed but unanswered', String(lostAfterCommit));

    proc = await startServerProcess(env, 240_000);
    let recovered = 0;
    for (let i = 0; i < REGISTRATIONS; i++) {
      if (answers[i]?.status === 201) continue;
      const again = await register(proc.url, i);
      s.count(again.status);
      const wasCommitted = committed.has(`crash-${i}`);
      s.check(
        again.status === (wasCommitted ? 409 : 201),
        `owner ${i} registering again: ${again.status} ${again.text.slice(0, 120)}`,
      );
      s.check(!/ncd_/.test(again.text) || again.status === 201, `owner ${i}: a key in the 409 answer`);
      const key = again.status === 201 ? (again.json.raw as string) : mailedKey(`owner-${i}@example.com`);
      s.check(key !== undefined, `owner ${i}: no key, neither in the answer nor by e-mail`);
      if (!key) continue;
      recovered++;
      const usage = await send(`${proc.url}/api/keys/usage`, {
        headers: { authorization: `Bearer ${key}` },
      });
      s.count(usage.status);
      s.check(usage.status === 200, `owner ${i}: the new key does not work (${usage.status})`);
    }
    s.figure('registered again', String(recovered));
    // the answered owners keep their keys
    for (const [i, a] of answers.entries()) {
      if (a?.status !== 201) continue;
      const usage = await send(`${proc.url}/api/keys/usage`, { headers: { authorization: `Bearer ${a.json.raw}` } });
      s.count(usage.status);
      s.check(usage.status === 200, `owner ${i} lost the key it was answered with (${usage.status})`);
    }
    const perProject = (
      await c.query<{ name: string; active: number }>(
        `SELECT p.name, count(*) FILTER (WHERE k.active)::int AS active
           FROM projects p JOIN api_keys k ON k.project_id = p.id WHERE p.name LIKE 'crash-%' GROUP BY p.name`,
      )
    ).rows;
    await c.end();
    s.check(perProject.length === REGISTRATIONS, `${perProject.length} of ${REGISTRATIONS} names registered`);
    for (const r of perProject) s.check(r.active === 1, `${r.name}: ${r.active} active keys`);
    s.save();
    expect(s.violations).toEqual([]);
  });
});
