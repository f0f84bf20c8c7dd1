import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'

// Addresses a webhook may not reach unless the operator allows it (WEBHOOK_ALLOW_PRIVATE_TARGETS): the
// server's own loopback, private networks, link-local (cloud metadata at 169.254.169.254) and the like.
const blocked = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4')
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6')
}

/** Whether an address is loopback, private, link-local or otherwise not a public host. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4')
  const family = isIP(address)
  if (family === 0) return true
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

export class PrivateTargetError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a loopback, private or link-local address`)
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
  const addresses = isIP(host) ? [{ address: host }] : await resolveAll(host)
  const bad = addresses.find((a) => isPrivateAddress(a.address))
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
      const bad = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address))
      if (bad) return callback(new PrivateTargetError(hostname, bad.address), [])
      if ((options as { all?: boolean }).all) return callback(null, addresses)
      const first = addresses[0]
      if (!first) return callback(new Error(`${hostname} has no address`), [])
      callback(null, first.address, first.family)
    })
  }
}
