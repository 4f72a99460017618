import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { WorkspaceSource } from "@coder/protocol";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { makeRepository, startGitServer } from "../src/imports/testing/git-server";
import { startTestService, waitForStatus } from "../src/testing/harness";

const FILES = 5000;
const FILE_BYTES = 10_000;
const RUNS = 5;

const now = () => performance.now();
// Never the sync variant: the git server answers from this very process.
const exec = promisify(execFile);

/** 5000 files of 10 KB (base64 of random bytes: text that compresses about 4:3) in 50 folders. */
function content(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) {
    files[`dir${i % 50}/file${i}.txt`] = randomBytes((FILE_BYTES * 3) / 4).toString("base64");
  }
  return files;
}

async function ms(work: () => Promise<unknown>): Promise<number> {
  const start = now();
  await work();
  return now() - start;
}

/** In a fresh folder on the host, removed afterwards. */
async function onHost(work: (dir: string) => Promise<unknown>): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), "coder-bench-host-"));
  try {
    return await ms(() => work(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Medians of paired runs: each round runs every step once, so load on the shared machine hits all alike. */
async function rounds<K extends string>(steps: Record<K, (run: number) => Promise<number>>) {
  const times = Object.fromEntries(Object.keys(steps).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let run = 0; run < RUNS; run++) {
    for (const key of Object.keys(steps) as K[]) times[key].push(await steps[key](run));
  }
  return Object.fromEntries(
    Object.entries(times).map(([k, v]) => [k, percentile(v as number[], 50)]),
  ) as Record<K, number>;
}

const seconds = (value: number) => round(value / 1000, 2);

export async function run(): Promise<BenchResult[]> {
  const files = content();
  const server = await startGitServer((root) => makeRepository(root, "bench", files));
  // A workspace as users get it by default (2 CPUs, 2 GB), not the tests' smaller one.
  const t = await startTestService(
    {},
    { CODER_EGRESS_ALLOW: server.allow, CODER_CPUS: "2", CODER_MEMORY_MB: "2048" },
  );
  const scratch = mkdtempSync(path.join(tmpdir(), "coder-bench-import-"));
  try {
    const url = `${server.url}/bench.git`;
    const create = async (name: string, source?: WorkspaceSource) => {
      const { id } = await t.api.workspace.create.mutate({ name, ...(source ? { source } : {}) });
      await waitForStatus(t.api, id, "running", 300_000);
      return id;
    };
    // The archive a person would upload: the same tree, made once on the host.
    const tree = path.join(scratch, "tree");
    await exec("git", ["clone", "--quiet", url, tree]);
    rmSync(path.join(tree, ".git"), { recursive: true });
    const archive = path.join(scratch, "tree.tar.gz");
    await exec("tar", ["-czf", archive, "-C", tree, "."]);
    const body = new Uint8Array(readFileSync(archive));
    // The export is of the uploaded copy: the same tree as the host's, without the clone's .git.
    let uploaded = "";

    const m = await rounds({
      // What creating any workspace costs (container, disks, daemon), to see the filling alone.
      empty: (i) => ms(() => create(`empty-${i}`)),
      hostClone: () => onHost((dir) => exec("git", ["clone", "--quiet", url, path.join(dir, "r")])),
      clone: (i) => ms(() => create(`git-${i}`, { type: "git", url, submodules: false })),
      hostUntar: () => onHost((dir) => exec("tar", ["-xzf", archive, "-C", dir])),
      upload: (i) =>
        ms(async () => {
          const res = await fetch(`${t.url}/api/uploads?name=tree.tar.gz`, {
            method: "POST",
            headers: { origin: t.url, cookie: t.cookie },
            body,
          });
          const { uploadId } = (await res.json()) as { uploadId: string };
          uploaded = await create(`upload-${i}`, { type: "upload", uploadId });
        }),
      // Into a file: GNU tar skips reading the files when the archive is /dev/null.
      hostTar: () => onHost((dir) => exec("tar", ["-czf", path.join(dir, "t.tar.gz"), "-C", tree, "."])),
      exported: () =>
        ms(async () => {
          const res = await fetch(`${t.url}/api/workspaces/${uploaded}/archive`, {
            headers: { cookie: t.cookie },
          });
          await res.arrayBuffer();
        }),
    });

    const compared = (name: string, ours: number, host: number): BenchResult => {
      const ratio = round(ours / host, 2);
      return { name, value: seconds(ours), unit: "s", ratio, target: "≤ 1.5×", pass: ratio <= 1.5 };
    };
    const size = `${FILES} files, ${round((FILES * FILE_BYTES) / 1e6, 0)} MB, median of ${RUNS} paired runs`;
    return [
      { name: `empty workspace, create → running (${size})`, value: seconds(m.empty), unit: "s" },
      { name: "host: git clone from the local git server", value: seconds(m.hostClone), unit: "s" },
      { name: "import from git, create → running", value: seconds(m.clone), unit: "s" },
      compared("import from git, less an empty create, vs host git clone", m.clone - m.empty, m.hostClone),
      { name: "host: tar -xzf of the same tree", value: seconds(m.hostUntar), unit: "s" },
      { name: "import from upload, POST + create → running", value: seconds(m.upload), unit: "s" },
      compared("import from upload, less an empty create, vs host tar -xzf", m.upload - m.empty, m.hostUntar),
      { name: "host: tar -czf of the same tree", value: seconds(m.hostTar), unit: "s" },
      compared("export (GET archive, whole download) vs host tar -czf", m.exported, m.hostTar),
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await t.close();
    await server.close();
  }
}
