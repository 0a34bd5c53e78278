import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../fixtures/websites/${name}`, import.meta.url)), 'utf8');
}

export function page(
  name: string,
  url: string,
  over: Partial<{ finalUrl: string; status: number; headers: Record<string, string> }> = {},
) {
  return {
    url,
    finalUrl: over.finalUrl ?? url,
    status: over.status ?? 200,
    html: fixture(name),
    headers: over.headers ?? {},
  };
}
