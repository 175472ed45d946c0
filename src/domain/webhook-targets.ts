import ipaddr from 'ipaddr.js';
import { invalidValue } from '../errors';

/** Every address a host name resolves to (A and AAAA); rejects when it resolves to none. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** What a webhook URL may point at. */
export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: loopback, private and reserved addresses too (development, tests). */
  allowPrivateNetworks: boolean;
  /** Production: `https` only. */
  httpsOnly: boolean;
  resolveHost: ResolveHost;
}

const refuse = (message: string) => invalidValue(`url ${message}`, [{ field: 'url', in: 'body', message }]);

/**
 * Refuses (400 naming `url`) a URL the service must not call: not http(s) (or not https in
 * production), with credentials in it, or whose host is, or resolves to, any address that is not
 * public unicast (loopback, private, link-local and so cloud metadata, unique-local,
 * carrier-grade NAT, reserved, unspecified, multicast; IPv4 inside IPv6 is judged as IPv4). Every
 * address of the host is checked: one private address among public ones refuses it. The sender
 * checks the address again at each connection, since a name can resolve elsewhere later.
 */
export async function assertDeliverableUrl(raw: string, policy: TargetPolicy): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && (policy.httpsOnly || url.protocol !== 'http:')) {
    throw refuse(policy.httpsOnly ? 'must use https' : 'must use http or https');
  }
  if (url.username !== '' || url.password !== '') throw refuse('must not carry credentials');
  if (policy.allowPrivateNetworks) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await policy.resolveHost(host);
    } catch {
      throw refuse(`host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw refuse(`host ${host} does not resolve`);
  }
  for (const address of addresses) {
    if (!ipaddr.isValid(address)) throw refuse(`host ${host} resolves to an address that is not public`);
    const range = ipaddr.process(address).range();
    if (range !== 'unicast') throw refuse(`host ${host} resolves to a ${range} address, which webhooks may not reach`);
  }
}
