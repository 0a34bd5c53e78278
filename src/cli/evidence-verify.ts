// `ncd evidence verify FILE [--jwks URL | --key FILE]`: checks an evidence pack offline — that
// the file is the RFC 8785 form of the pack, that its SHA-256 hash matches, and that its Ed25519
// signature holds for the public key its kid names (from the server's JWKS) or for the one key
// given (PEM or JWK file). Opens no store and loads no server config. Exit 0 verified, 1 not.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { KeyObject } from 'node:crypto';
import { checkPack, publicKeyFrom } from '../domain/evidence/index.ts';

export const EVIDENCE_USAGE = `Usage: ncd evidence verify FILE (--jwks URL | --key FILE) [--json]

Checks a KYB evidence pack (GET /api/evidence/{id}) offline: the file is the RFC 8785 canonical
JSON of the pack, its SHA-256 hash matches, and its Ed25519 signature holds.
  --jwks URL   the server's public keys, e.g. https://api.example.org/.well-known/jwks.json
  --key FILE   one public key: PEM (SPKI) or a JWK ({"kty":"OKP","crv":"Ed25519","x":…})
  --json       print the checks as JSON
Exit status: 0 verified, 1 not verified, 2 usage or I/O error.`;

async function jwksKeys(url: string): Promise<Map<string, KeyObject>> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  const body = (await res.json()) as { keys?: { kid?: string; kty: string; crv: string; x: string }[] };
  const keys = new Map<string, KeyObject>();
  for (const k of body.keys ?? [])
    if (k.kid && k.kty === 'OKP' && k.crv === 'Ed25519') keys.set(k.kid, publicKeyFrom(k));
  return keys;
}

export async function evidenceCommand(argv: string[], json = false): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { jwks: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${EVIDENCE_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(EVIDENCE_USAGE);
    return 0;
  }
  const [verb, file, ...rest] = positionals;
  if (verb !== 'verify' || !file || rest.length || (!values.jwks && !values.key) || (values.jwks && values.key)) {
    console.error(EVIDENCE_USAGE);
    return 2;
  }
  let text: string;
  let byKid = new Map<string, KeyObject>();
  let anyKey: KeyObject | undefined;
  try {
    text = readFileSync(file, 'utf8');
    if (values.key) anyKey = publicKeyFrom(readFileSync(values.key, 'utf8'));
    else byKid = await jwksKeys(values.jwks!);
  } catch (e) {
    console.error(`ncd evidence verify: ${(e as Error).message}`);
    return 2;
  }
  const result = checkPack(text, { byKid, anyKey });
  const keySource = values.key
    ? `key file ${values.key}`
    : `JWKS ${values.jwks} (${byKid.size} key${byKid.size === 1 ? '' : 's'})`;
  if (json) {
    console.log(JSON.stringify({ verified: result.ok, keySource, ...result }, null, 2));
  } else {
    const subject = result.subject as { orgNumber?: string; country?: string; name?: string } | undefined;
    console.log(
      `pack ${result.id ?? '?'} — ${subject?.name ?? '?'} (${subject?.country ?? '?'} ${subject?.orgNumber ?? '?'}), created ${result.createdAt ?? '?'}`,
    );
    console.log(`public key: ${keySource}`);
    for (const c of result.checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
    console.log(result.ok ? 'VERIFIED: hash and Ed25519 signature hold; the file is unchanged' : 'NOT VERIFIED');
  }
  return result.ok ? 0 : 1;
}
