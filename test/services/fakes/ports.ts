// The mailer and logger ports, kept in memory for assertions.
import type { Logger } from 'pino';
import type { Mailer, SetupMail } from '../../../src/mail/mailer.ts';

/** Setup e-mails, kept instead of sent; `failing` makes the next sends throw. */
export class FakeMailer implements Mailer {
  readonly sent: SetupMail[] = [];
  failing = false;
  delivers = true;
  async sendSetupLink(mail: SetupMail): Promise<void> {
    if (this.failing) throw new Error('smtp: connection refused');
    this.sent.push(mail);
  }
  async close(): Promise<void> {}
}

/** A logger that keeps what it was told (pino's overloads accept the object-then-message form used here). */
export function fakeLog() {
  const lines: { level: 'info' | 'warn'; obj: Record<string, unknown>; msg: string }[] = [];
  const at = (level: 'info' | 'warn') => (obj: Record<string, unknown>, msg: string) =>
    void lines.push({ level, obj, msg });
  const log = { info: at('info'), warn: at('warn') } as unknown as Pick<Logger, 'info' | 'warn'>;
  return Object.assign(log, { lines });
}
