// Embedded mode with a server running: the server holds the DATA_DIR lock, so the typed command
// goes to its operator endpoint (authorised by a token derived from SECRET_KEY) and the progress
// it streams back as NDJSON is shown as if the command ran here.
import type { Config } from '../config/index.ts';
import type { OperatorCommand } from '../ops/command.ts';
import { operatorToken } from '../ops/operator-token.ts';
import type { LockInfo } from '../store/engine/data-dir-lock.ts';
import { print } from './output.ts';

interface Line {
  type: string;
  message?: string;
  result?: unknown;
}

export async function handOff(config: Config, lock: LockInfo, command: OperatorCommand): Promise<number> {
  const host = !lock.host || lock.host === '0.0.0.0' || lock.host === '::' ? '127.0.0.1' : lock.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${lock.port}/internal/operator`;
  console.error(`A server (pid ${lock.pid}) holds ${config.dataDir}; running the command there.`);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-token': operatorToken(config.secretKey) },
    body: JSON.stringify(command),
  });
  if (!res.ok || !res.body) {
    console.error(`The server refused the command (HTTP ${res.status}).`);
    // A 400 names what the server's schema did not accept (e.g. a server of another version).
    const details = ((await res.json().catch(() => ({}))) as { details?: { path: string; message: string }[] }).details;
    for (const d of details ?? []) console.error(`  ${d.path} ${d.message}`);
    return 1;
  }
  let code = 1;
  let buffered = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buffered.slice(0, nl)) as Line;
      buffered = buffered.slice(nl + 1);
      if (msg.type === 'progress') console.error(msg.message);
      else if (msg.type === 'result') {
        print(msg.result);
        code = 0;
      } else if (msg.type === 'error') console.error(msg.message);
    }
  }
  return code;
}
