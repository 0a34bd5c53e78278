// The setup-link mailer port: SMTP when SMTP_URL is set (plain text with an HTML alternative),
// otherwise a log line. The log line never carries the raw key or the full address: the key
// was already returned to the caller.
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface SetupMail {
  to: string;
  projectName: string;
  setupUrl: string;
  keyPrefix: string;
}

export interface Mailer {
  /**
   * false: the mail only goes to the log (no SMTP_URL), so it reaches nobody. A lost
   * registration is then never recovered (recovery proves possession of the address).
   */
  readonly delivers?: boolean;
  sendSetupLink(mail: SetupMail): Promise<void>;
  close(): Promise<void>;
}

function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain ?? ''}`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** BASE_URL as the setup link carries it ("{base}/setup?key=…"), for the docs link. */
const baseOf = (setupUrl: string) => setupUrl.slice(0, Math.max(0, setupUrl.lastIndexOf('/setup?')));

function setupMailText(m: SetupMail): string {
  return [
    `Your API key for "${m.projectName}" is ready (key ${m.keyPrefix}…).`,
    '',
    'Open this link to see your key, your limits and usage, and copy-paste quick starts:',
    m.setupUrl,
    '',
    `API reference: ${baseOf(m.setupUrl)}/docs`,
    '',
    'The link contains the key itself. Keep it secret; rotate the key if it leaks (POST /api/keys/rotate).',
  ].join('\n');
}

function setupMailHtml(m: SetupMail): string {
  const url = escapeHtml(m.setupUrl);
  const docs = escapeHtml(`${baseOf(m.setupUrl)}/docs`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Your API key</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.5;color:#1d232a;max-width:36rem;margin:0 auto;padding:1rem">
<h1 style="font-size:1.3rem">Your API key for &#8220;${escapeHtml(m.projectName)}&#8221; is ready</h1>
<p>Key <code>${escapeHtml(m.keyPrefix)}…</code>. Open the setup page to see the key, your limits and usage, and copy-paste quick starts:</p>
<p><a href="${url}" style="display:inline-block;background:#1f6feb;color:#fff;padding:.6rem 1.1rem;border-radius:6px;text-decoration:none">Open the setup page</a></p>
<p style="font-size:.9rem;color:#5b6570">Or paste this link into your browser:<br><span style="word-break:break-all">${url}</span></p>
<p><a href="${docs}">API reference</a></p>
<p style="font-size:.9rem;color:#5b6570">The link contains the key itself. Keep it secret; rotate the key if it leaks (<code>POST /api/keys/rotate</code>).</p>
</body></html>`;
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl, { from } as never);
  return {
    async sendSetupLink(m) {
      await transport.sendMail({
        from,
        to: m.to,
        subject: `Your API key for ${m.projectName}`,
        text: setupMailText(m),
        html: setupMailHtml(m),
      });
    },
    async close() {
      transport.close();
    },
  };
}

export function createLogMailer(log: Logger): Mailer {
  return {
    delivers: false,
    async sendSetupLink(m) {
      log.info(
        { mail: { to: maskEmail(m.to), projectName: m.projectName, keyPrefix: m.keyPrefix } },
        'SMTP_URL is not set: setup e-mail not sent (the key was returned in the registration response)',
      );
    },
    async close() {},
  };
}
