import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { hashPassword, passwordMatches } from "../src/auth/password-hash";
import { startTestService } from "../src/testing/harness";

const now = () => performance.now();
const SIGN_INS = 100;
const PASSWORD = "violet-harbour-lantern";

/**
 * Signing in with a password: an invited account (made through a real invitation link), then the
 * right password posted to `POST /auth/password` as the login page does, each until its session
 * cookie came back; and the argon2id check alone, to show what share of the sign-in it is.
 */
export async function run(): Promise<BenchResult[]> {
  const t = await startTestService();
  try {
    const { url } = await t.api.user.invite.mutate({ email: "bench@example.com", role: "member" });
    const post = (path: string, body: unknown) =>
      fetch(`${t.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: t.url },
        body: JSON.stringify(body),
      });
    const accepted = await post("/auth/invite", {
      secret: url.split("/invite/")[1],
      displayName: "Bench",
      password: PASSWORD,
    });
    if (accepted.status !== 204) throw new Error(`the invitation was refused: ${await accepted.text()}`);
    const signIns: number[] = [];
    for (let i = 0; i < SIGN_INS; i++) {
      const start = now();
      const res = await post("/auth/password", { email: "bench@example.com", password: PASSWORD });
      await res.arrayBuffer();
      if (res.status !== 204) throw new Error(`sign-in refused: ${res.status}`);
      signIns.push(now() - start);
    }
    const stored = await hashPassword(PASSWORD);
    const checks: number[] = [];
    for (let i = 0; i < SIGN_INS; i++) {
      const start = now();
      await passwordMatches(stored, PASSWORD);
      checks.push(now() - start);
    }
    const signIn = percentile(signIns, 50);
    const check = percentile(checks, 50);
    return [
      {
        name: "sign-in with a password (argon2id), p50",
        value: round(signIn, 1),
        unit: "ms",
        ratio: round(check / signIn, 2),
        notes: `POST /auth/password with the right password until the cookie came back (p99 ${round(percentile(signIns, 99), 1)} ms); ratio: share of it that is the argon2id check (m=19 MiB, t=2, p=1; p50 ${round(check, 1)} ms)`,
      },
    ];
  } finally {
    await t.close();
  }
}
