import { normalEmail } from "./accounts";

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase; the bound keeps hashing a body of megabytes out of reach. */
export const MAX_PASSWORD_LENGTH = 256;

/** How many distinct characters a password needs at the least ("aaaaaaaaaa", "ababababab" fail). */
const MIN_DISTINCT = 4;

/** Runs of the keyboard or the alphabet that people type as a "password". */
const SEQUENCES = ["0123456789", "abcdefghijklmnopqrstuvwxyz", "qwertyuiop", "asdfghjkl", "zxcvbnm"];

/** True when `text` is a stretch of one of `SEQUENCES`, forwards or backwards. */
function isSequence(text: string): boolean {
  const lower = text.toLowerCase();
  const reversed = [...lower].reverse().join("");
  return SEQUENCES.some((run) => {
    const twice = run + run;
    return twice.includes(lower) || twice.includes(reversed);
  });
}

/**
 * Why `password` is too weak for the account of `email`, as a sentence for the person, or null
 * when it will do. NIST SP 800-63B's advice: a length floor and no composition rules, but refuse
 * what an attacker tries first — the account's own address or its name part, one character or a
 * short pattern repeated, a run of the keyboard or the alphabet.
 */
export function weakPasswordReason(password: string, email: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return `use at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  if ([...password].length > MAX_PASSWORD_LENGTH) {
    return `use at most ${MAX_PASSWORD_LENGTH} characters`;
  }
  const lower = password.toLowerCase();
  const address = normalEmail(email);
  const name = address.split("@")[0] ?? address;
  if (lower.includes(address) || (name.length >= 4 && lower.includes(name))) {
    return "do not use your e-mail address or its name in the password: it is the first thing tried";
  }
  if (new Set(lower).size < MIN_DISTINCT) {
    return "a password of one or a few characters repeated is guessed at once; use more different characters";
  }
  if (isSequence(password)) {
    return "a run of the keyboard or the alphabet is guessed at once; choose something less regular";
  }
  return null;
}
