/**
 * Where webhooks may send: in production an `https` URL whose host resolves only to public
 * unicast addresses (no loopback, private, link-local, metadata or other special ranges), checked
 * at registration and again before each delivery; in development, or with
 * `WEBHOOK_ALLOW_PRIVATE=true`, any `http` or `https` URL.
 */
import { lookup } from 'node:dns/promises';

import ipaddr from 'ipaddr.js';

/** Why `url` may not receive webhooks, or undefined when it may. */
export async function refusedWebhookUrl(url: string, allowPrivate: boolean): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  const protocols = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(parsed.protocol) || parsed.username !== '' || parsed.password !== '') {
    return allowPrivate ? 'not an http or https URL without credentials' : 'not an https URL without credentials';
  }
  if (allowPrivate) {
    return undefined;
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return `host ${host} does not resolve`;
  }
  const special = addresses.find((address) => ipaddr.process(address).range() !== 'unicast');
  return special === undefined ? undefined : `host ${host} resolves to a non-public address (${special})`;
}
