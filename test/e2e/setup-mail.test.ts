// The setup-link e-mail: plain text with an HTML alternative over SMTP (a local smtp-server
// receiver), or a log line without secrets when SMTP_URL is not set.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { startSmtpReceiver, type ReceivedMail } from '../fakes/smtp.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let mailing: TestServer;
let logging: TestServer;
const logLines: string[] = [];
let ipSeq = 0;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  // One after the other: two boots at once on a busy 2-core machine can exceed Fastify's plugin timeout.
  mailing = await startServer({
    env: { TRUST_PROXY: 'true', SMTP_URL: smtp.url, MAIL_FROM: 'keys@example.test' },
    overrides: { logger: createLogger('info', sink) },
  });
  logging = await startServer({ env: { TRUST_PROXY: 'true' }, overrides: { logger: createLogger('info', sink) } });
});
afterAll(async () => {
  await mailing?.close();
  await logging?.close();
  await smtp?.close();
});

const register = (server: TestServer, body: unknown) =>
  http(server.url, 'POST', '/api/keys/register', { body, headers: { 'x-forwarded-for': `203.0.113.${++ipSeq}` } });

interface MimePart {
  headers: string;
  body: string;
}

const decodeQp = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** The parts of a multipart message, bodies decoded: enough MIME for what nodemailer sends. */
function mimeParts(raw: string): { headers: string; parts: MimePart[] } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!boundary) throw new Error('not multipart');
  const parts = raw
    .slice(split + 4)
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => {
      const at = chunk.indexOf('\r\n\r\n');
      const h = chunk.slice(0, at);
      const b = chunk.slice(at + 4).replace(/\r\n$/, '');
      const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(h)?.[1]?.toLowerCase();
      const body =
        encoding === 'quoted-printable'
          ? decodeQp(b)
          : encoding === 'base64'
            ? Buffer.from(b, 'base64').toString('utf8')
            : b;
      return { headers: h, body: body.replace(/\r\n/g, '\n') };
    });
  return { headers, parts };
}

/** The Subject header, unfolded, with RFC 2047 Q-encoded words decoded. */
function subjectOf(headers: string): string {
  const line = /^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(headers)![1].replace(/\r\n[ \t]/g, ' ');
  return line.replace(/=\?UTF-8\?Q\?([^?]*)\?=\s*/gi, (_, q: string) => decodeQp(q.replace(/_/g, ' ')));
}

const mailTo = (to: string): ReceivedMail | undefined => smtp.messages.find((m) => m.to.includes(to));

describe('setup e-mail over SMTP', () => {
  it('sends plain text and an HTML alternative, both with the setup link and docs link', async () => {
    const res = await register(mailing, { projectName: 'Leads <CRM> & "Sync"', email: 'owner@example.com' });
    expect(res.status).toBe(201);
    const mail = mailTo('owner@example.com');
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('keys@example.test');

    const { headers, parts } = mimeParts(mail!.raw);
    expect(headers).toMatch(/content-type:\s*multipart\/alternative/i);
    expect(subjectOf(headers)).toBe('Your API key for Leads <CRM> & "Sync"');
    const text = parts.find((p) => /content-type:\s*text\/plain/i.test(p.headers));
    const html = parts.find((p) => /content-type:\s*text\/html/i.test(p.headers));
    expect(text && html).toBeTruthy();

    expect(text!.body).toContain('Your API key for "Leads <CRM> & "Sync"" is ready');
    expect(text!.body).toContain(`\n${res.body.setupUrl}\n`);
    expect(text!.body).toContain(`${mailing.url}/docs`);
    expect(text!.body).toContain(res.body.keyPrefix);

    expect(html!.body).toContain('Leads &#60;CRM&#62; &#38; &#34;Sync&#34;');
    expect(html!.body).not.toContain('<CRM>');
    expect(html!.body).toContain(`href="${res.body.setupUrl}"`);
    expect(html!.body).toContain(`href="${mailing.url}/docs"`);
    expect(html!.body).toContain('<meta name="referrer" content="no-referrer">');
  });

  it('still returns the key when the SMTP server is unreachable, and logs no secret', async () => {
    const down = await startSmtpReceiver();
    const url = down.url;
    await down.close();
    const server = await startServer({
      env: { TRUST_PROXY: 'true', SMTP_URL: url },
      overrides: {
        logger: createLogger('info', new Writable({ write: (c, _e, d) => (logLines.push(String(c)), d()) })),
      },
    });
    try {
      const res = await register(server, { projectName: 'smtp-down', email: 'down@example.com' });
      expect(res.status).toBe(201);
      expect(res.body.raw).toMatch(/^ncd_/);
      const warn = logLines.find((l) => l.includes('setup e-mail could not be sent') && l.includes(res.body.keyPrefix));
      expect(warn).toBeDefined();
      expect(logLines.join('')).not.toContain(res.body.raw);
      expect(logLines.join('')).not.toContain('down@example.com');
    } finally {
      await server.close();
    }
  });
});

describe('setup e-mail without SMTP_URL', () => {
  it('logs that the mail was not sent, with a masked address and no key', async () => {
    const res = await register(logging, { projectName: 'no-smtp', email: 'quiet.person@example.org' });
    expect(res.status).toBe(201);
    const line = logLines.find((l) => l.includes('setup e-mail not sent') && l.includes('"no-smtp"'));
    expect(line).toBeDefined();
    const entry = JSON.parse(line!);
    expect(entry.mail).toEqual({ to: 'q***@example.org', projectName: 'no-smtp', keyPrefix: res.body.keyPrefix });
    expect(logLines.join('')).not.toContain(res.body.raw);
    expect(logLines.join('')).not.toContain('quiet.person@example.org');
    expect(mailTo('quiet.person@example.org')).toBeUndefined();
  });
});
