// Which addresses may receive a webhook. An admin chooses the URL, so without a policy the server
// would POST into its own network for them (and the delivery list would tell them what answered).
// By default only public addresses over https:// are allowed: loopback, private, shared (CGNAT),
// unique-local, link-local (cloud metadata), documentation, benchmarking and reserved ranges are
// refused, and so are their IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) spellings.
// WEBHOOK_ALLOWED_NETWORKS lists the networks the operator opens anyway (a receiver beside the
// server, the test suite's receiver on loopback); plain http:// goes only there. Unspecified,
// multicast and broadcast addresses are never destinations. Node's BlockList does the matching
// (it also matches an IPv4 rule against the IPv4-mapped IPv6 form of an address, and back).
import { BlockList, isIP } from 'node:net';

type Range = readonly [address: string, prefix: number, kind: string];

const NEVER_V4: Range[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved or broadcast'],
];
const INTERNAL_V4: Range[] = [
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
];
const NEVER_V6: Range[] = [
  ['::', 128, 'unspecified'],
  ['ff00::', 8, 'multicast'],
];
const INTERNAL_V6: Range[] = [
  ['::1', 128, 'loopback'],
  // IPv4-compatible addresses (deprecated) and the discard prefix: no receiver lives there.
  ['::', 96, 'IPv4-compatible'],
  ['100::', 64, 'discard'],
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
];
/** The well-known NAT64 prefix: 64:ff9b::a.b.c.d reaches a.b.c.d through a translator. */
const NAT64 = '64:ff9b::';

function familyOf(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** One BlockList per range (so the log can say which kind matched); IPv4 ranges also in their NAT64 spelling. */
function rangeLists(v4: Range[], v6: Range[]): Array<{ kind: string; list: BlockList }> {
  const lists = v4.map(([address, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(address, prefix, 'ipv4');
    list.addSubnet(`${NAT64}${address}`, 96 + prefix, 'ipv6');
    return { kind, list };
  });
  for (const [address, prefix, kind] of v6) {
    const list = new BlockList();
    list.addSubnet(address, prefix, 'ipv6');
    lists.push({ kind, list });
  }
  return lists;
}

const NEVER = rangeLists(NEVER_V4, NEVER_V6);
const INTERNAL = rangeLists(INTERNAL_V4, INTERNAL_V6);

/** The kind of the first range of `ranges` that holds `address`, or null. */
function kindOf(ranges: Array<{ kind: string; list: BlockList }>, address: string): string | null {
  const family = familyOf(address);
  return ranges.find(({ list }) => list.check(address, family))?.kind ?? null;
}

export interface AddressPolicy {
  /** Why `address` (an IP address) may not receive a delivery over `protocol` ('http:' or 'https:'), or null when it may. */
  refusalOf(address: string, protocol: string): string | null;
}

/** `allowedNetworks`: CIDR strings (WEBHOOK_ALLOWED_NETWORKS, checked by the configuration). */
export function addressPolicy(allowedNetworks: readonly string[]): AddressPolicy {
  const allowed = new BlockList();
  for (const network of allowedNetworks) {
    const [address, prefix] = network.split('/') as [string, string];
    allowed.addSubnet(address, Number(prefix), familyOf(address));
  }
  return {
    refusalOf(address, protocol) {
      if (isIP(address) === 0) return 'not an IP address';
      const never = kindOf(NEVER, address);
      if (never !== null) return never;
      if (allowed.check(address, familyOf(address))) return null;
      if (protocol !== 'https:') return 'plain http:// goes only to WEBHOOK_ALLOWED_NETWORKS';
      return kindOf(INTERNAL, address);
    },
  };
}
