import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";

/** Where `program` would be run from: a path containing `/` as given, otherwise a lookup in `searchPath`. */
export async function findExecutable(
  program: string,
  searchPath: string = process.env.PATH ?? "",
): Promise<string | undefined> {
  if (program.includes("/")) return (await isExecutableFile(program)) ? program : undefined;
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
