// Test support: a cluster CA and a certificate it signs, made with openssl (scripts/lib/swarm-tools.mjs
// makes sure it is there), as an operator would for the instances and the manager's engine API.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { ClusterTlsFiles } from "../../config/swarm-nodes-config";

const run = promisify(execFile);

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/**
 * Makes `dir` with a new CA and one certificate it signs, good for servers and clients at `ips`
 * (one certificate for every member keeps the test short; each machine gets its own in production).
 */
export async function makeClusterCertificates(dir: string, ips: string[]): Promise<ClusterTlsFiles> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = (name: string) => path.join(dir, name);
  await run("openssl", [
    "req",
    "-x509",
    ...EC,
    "-days",
    "2",
    "-subj",
    "/CN=coder test cluster CA",
    "-keyout",
    file("ca-key.pem"),
    "-out",
    file("ca.pem"),
  ]);
  await run("openssl", [
    "req",
    ...EC,
    "-subj",
    "/CN=coder test instance",
    "-keyout",
    file("key.pem"),
    "-out",
    file("cert.csr"),
  ]);
  await writeFile(
    file("cert.ext"),
    [
      `subjectAltName=${ips.map((ip) => `IP:${ip}`).join(",")}`,
      "basicConstraints=CA:FALSE",
      "keyUsage=digitalSignature,keyEncipherment",
      "extendedKeyUsage=serverAuth,clientAuth",
    ].join("\n"),
  );
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    file("cert.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca-key.pem"),
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    file("cert.ext"),
    "-out",
    file("cert.pem"),
  ]);
  return { ca: file("ca.pem"), cert: file("cert.pem"), key: file("key.pem") };
}
