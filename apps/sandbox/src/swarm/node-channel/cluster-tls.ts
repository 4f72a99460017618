import { readFileSync } from "node:fs";
import type { ClusterTlsFiles } from "../../config/swarm-nodes-config";

/** The cluster's CA and this instance's certificate and key (PEM). */
export interface ClusterTls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

/** Read once at start (the driver is made synchronously); a missing file stops the start, naming it. */
export function loadClusterTls(files: ClusterTlsFiles): ClusterTls {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`the cluster's ${what} could not be read from ${file} (${(err as Error).message})`);
    }
  };
  return {
    ca: read(files.ca, "CA certificate"),
    cert: read(files.cert, "certificate"),
    key: read(files.key, "key"),
  };
}
