import { describe, expect, it } from "vitest";
import { parseListeningSockets, reachableFromLoopback } from "./proc-net-tcp";

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0000000000000000 100 0 0 10 0
   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 222 1 0000000000000000 100 0 0 10 0
   2: 0200000A:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 333 1 0000000000000000 100 0 0 10 0
   3: 0100007F:0BB8 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 444 1 0000000000000000 20 4 30 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:1435 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 555 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000000000000:2328 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 666 1 0000000000000000 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:2329 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 777 1 0000000000000000 100 0 0 10 0
   3: 80FE00000000000000000000010000AA:232A 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 888 1 0000000000000000 100 0 0 10 0
`;

describe("reading the listening sockets from /proc/net/tcp and tcp6", () => {
  it("keeps loopback and wildcard listeners, IPv4 and IPv6, and nothing else", () => {
    expect(parseListeningSockets(TCP)).toEqual([
      { port: 3000, inode: "111" },
      { port: 8080, inode: "222" },
    ]);
    expect(parseListeningSockets(TCP6)).toEqual([
      { port: 5173, inode: "555" },
      { port: 9000, inode: "666" },
      { port: 9001, inode: "777" },
    ]);
  });

  it("tells which local addresses 127.0.0.1 reaches", () => {
    expect(reachableFromLoopback("0100007F")).toBe(true);
    expect(reachableFromLoopback("0101A8C0")).toBe(false);
    expect(reachableFromLoopback("00000000000000000000000000000000")).toBe(true);
  });

  it("ignores lines that are not sockets", () => {
    expect(parseListeningSockets("header\n garbage\n 0: zz:zz 00 0A\n")).toEqual([]);
  });
});
