// The token the `ncd` command presents to a running embedded server (derived from SECRET_KEY,
// which only someone who can read DATA_DIR or the environment has).
import { deriveKey, hmacHex } from '../domain/secrets.ts';

export function operatorToken(secretKey: string): string {
  return hmacHex(deriveKey(secretKey, 'operator'), 'ncd-operator');
}
