// Settings that start fine but probably do not do what the operator wants.
import type { Config } from './types.ts';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * Settings that start fine but probably do not do what the operator wants; main.ts prints them.
 * Listening beyond loopback with BASE_URL on localhost: links in e-mails and the OpenAPI
 * document would point at the reader's own machine.
 */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  const baseHost = new URL(config.baseUrl).hostname;
  if (!LOOPBACK_HOST.test(config.host) && LOOPBACK_HOST.test(baseHost)) {
    warnings.push(
      config.baseUrlConfigured
        ? `HOST is ${config.host} (reachable from other machines) but BASE_URL is ${config.baseUrl}: ` +
            'setup links and the OpenAPI document point at localhost. Set BASE_URL to the public URL.'
        : `HOST is ${config.host} (reachable from other machines) and BASE_URL is not set: setup links and the ` +
            "OpenAPI document use each request's Host header. Set BASE_URL to the public URL.",
    );
  }
  return warnings;
}
