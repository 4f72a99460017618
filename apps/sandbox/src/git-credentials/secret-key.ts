import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { decodeSecretKey } from "../config/secret-key";

/** The file in the data folder holding the key made at first start when CODER_SECRET_KEY is unset. */
export const SECRET_KEY_FILE = "secret.key";
const KEY_BYTES = 32;

/**
 * The key that seals what the service keeps secret at rest (git credentials): CODER_SECRET_KEY
 * when set, otherwise the data folder's own, made at first start and readable by the service's
 * user only (mode 0600). Several instances on one database need the same CODER_SECRET_KEY.
 */
export async function loadSecretKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return configured;
  const file = path.join(dataDir, SECRET_KEY_FILE);
  try {
    const key = decodeSecretKey(await readFile(file, "utf8"));
    if (!key)
      throw new Error(`${file} does not hold a 256-bit key; set CODER_SECRET_KEY or restore the file`);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  // `wx`: two starts racing on one data folder never overwrite each other's key.
  await writeFile(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" }).catch(async (err) => {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  });
  await chmod(file, 0o600);
  return loadSecretKey(undefined, dataDir);
}
