// Login password hashing: argon2id with the OWASP-recommended cost (19 MiB, 2 passes, 1 lane),
// which is also @node-rs/argon2's default algorithm and cost; spelled out so a library default
// change cannot silently weaken new hashes.
import { hash, verify } from '@node-rs/argon2';

// The length rule is part of the API contract; the CLI applies it too.
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../contract/common.ts';

const ARGON2ID = 2; // Algorithm.Argon2id; the package declares it as a const enum.
const COST = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, COST);
}

// Verifying against this when the username is unknown makes a failed login take as long as a
// wrong password, so response time does not reveal which usernames exist.
let decoyHash: Promise<string> | undefined;

/** True when `password` matches `passwordHash`; with no hash, spends the same time and returns false. */
export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash === undefined) {
    decoyHash ??= hashPassword('decoy password for unknown users');
    await verify(await decoyHash, password);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash cannot match anything; treat it as a wrong password.
    return false;
  }
}
