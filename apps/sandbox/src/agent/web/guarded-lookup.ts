import dns from "node:dns";
import type { LookupFunction } from "node:net";
import type { AddressPolicy } from "./address-policy";

export type DnsLookup = (hostname: string, options: dns.LookupAllOptions) => Promise<dns.LookupAddress[]>;

const systemLookup: DnsLookup = (hostname, options) => dns.promises.lookup(hostname, options);

/**
 * A `lookup` for sockets that resolves the name itself and refuses when any address it resolves
 * to is not allowed (a name that also points at 127.0.0.1 is refused, not raced).
 */
export function guardedLookup(policy: AddressPolicy, resolve: DnsLookup = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { all: true, family: options.family ?? 0 })
      .then((addresses) => {
        const refused = addresses.map((a) => policy(a.address)).find((r) => r !== undefined);
        if (refused)
          throw Object.assign(new Error(`${hostname} resolves to ${refused}`), { code: "EBLOCKED" });
        if (addresses.length === 0)
          throw Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" });
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? "", addresses[0]?.family ?? 4);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, "", 4));
  };
}
