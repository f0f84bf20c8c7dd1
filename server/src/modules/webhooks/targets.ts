import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import os from 'node:os'
import ipaddr from 'ipaddr.js'

// Which addresses a webhook may reach, unless the operator allows private targets
// (WEBHOOK_ALLOW_PRIVATE_TARGETS): only globally routable unicast ones. The special ranges are
// ipaddr.js's (IANA's special-purpose registries, kept by its maintainers): loopback, private, CGNAT,
// link-local (cloud metadata at 169.254.169.254), documentation, benchmarking, reserved, multicast,
// IPv4-mapped and -translated IPv6, NAT64 (64:ff9b::/96), 6to4, Teredo and the rest all answer a range
// other than 'unicast'. IPv6 must also be in 2000::/3, the only block IANA gives out as global unicast
// (so IPv4-compatible ::a.b.c.d and other unassigned space are refused too). And never this host's own
// addresses, read from its interfaces at each check: a public address of the server itself is not a
// receiver.

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3')

/** This host's addresses, as its interfaces have them now (normalized). */
function ownAddresses(): Set<string> {
  const own = new Set<string>()
  for (const list of Object.values(os.networkInterfaces())) {
    for (const info of list ?? []) {
      if (ipaddr.isValid(info.address)) own.add(ipaddr.parse(info.address).toNormalizedString())
    }
  }
  return own
}

/** Whether an address is anything but a public host's: not global unicast, unparsable, or this host. */
export function isPrivateAddress(address: string, own: ReadonlySet<string> = ownAddresses()): boolean {
  if (!ipaddr.isValid(address)) return true
  const parsed = ipaddr.parse(address)
  if (parsed.range() !== 'unicast') return true
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return true
  return own.has(parsed.toNormalizedString())
}

export class PrivateTargetError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private, local or otherwise non-public address`)
  }
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  )
}

/** Resolves the URL's host and refuses it if any address it names is private (unless allowed). */
export async function checkTarget(url: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  const addresses = ipaddr.isValid(host) ? [{ address: host }] : await resolveAll(host)
  const own = ownAddresses()
  const bad = addresses.find((a) => isPrivateAddress(a.address, own))
  if (bad) throw new PrivateTargetError(host, bad.address)
}

/**
 * A `lookup` for http.request that checks the very address the socket connects to, so a name that
 * resolved to a public address when checked cannot rebind to a private one for the request.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: object,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, [])
      const own = allowPrivate ? null : ownAddresses()
      const bad = own ? addresses.find((a) => isPrivateAddress(a.address, own)) : undefined
      if (bad) return callback(new PrivateTargetError(hostname, bad.address), [])
      if ((options as { all?: boolean }).all) return callback(null, addresses)
      const first = addresses[0]
      if (!first) return callback(new Error(`${hostname} has no address`), [])
      callback(null, first.address, first.family)
    })
  }
}
