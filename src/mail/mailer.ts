// The setup-link mailer port: SMTP when SMTP_URL is set, otherwise a log line. The log line
// never carries the raw key or the full address: the key was already returned to the caller.
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface SetupMail {
  to: string;
  projectName: string;
  setupUrl: string;
  keyPrefix: string;
}

export interface Mailer {
  sendSetupLink(mail: SetupMail): Promise<void>;
  close(): Promise<void>;
}

export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain ?? ''}`;
}

function body(m: SetupMail): string {
  return [
    `Your API key for "${m.projectName}" is ready.`,
    '',
    `Open this link to see your key and how to use it:`,
    m.setupUrl,
    '',
    'The link contains the key itself. Keep it secret; rotate the key if it leaks (POST /api/keys/rotate).',
  ].join('\n');
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl, { from } as never);
  return {
    async sendSetupLink(m) {
      await transport.sendMail({ from, to: m.to, subject: `Your API key for ${m.projectName}`, text: body(m) });
    },
    async close() {
      transport.close();
    },
  };
}

export function createLogMailer(log: Logger): Mailer {
  return {
    async sendSetupLink(m) {
      log.info(
        { mail: { to: maskEmail(m.to), projectName: m.projectName, keyPrefix: m.keyPrefix } },
        'SMTP_URL is not set: setup e-mail not sent (the key was returned in the registration response)',
      );
    },
    async close() {},
  };
}
