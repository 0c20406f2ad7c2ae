/**
 * Password hashes at a fraction of their cost, for convex-test drills that sign in and attack sign-in
 * paths by the thousand (access.test.ts). Each password hash and each check of one (a wrong password
 * and an unknown account alike: model/passwords.ts hashes against a hash that matches nothing) runs
 * PBKDF2 at `PASSWORD_HASH.iterations` (600,000: ~0.26 s of a core); the access sweep makes about 90
 * of them, a third of its CPU, and what it checks (who may call what, what changes, what leaks) does
 * not depend on the count. While the double is on, PBKDF2 at that count derives with
 * `ITERATIONS` instead — for hashing and checking alike, so a right password still matches and a
 * wrong one still does not; stored hashes still say `i=600000`. Every other use of Web Crypto
 * (sign-up stamps, tokens) is untouched. Hashes made while it is on only verify while it is on.
 */
import { PASSWORD_HASH } from "../../convex/model/passwords";

/** What a password hash costs while the double is on. */
const ITERATIONS = 1_000;

type DeriveBits = SubtleCrypto["deriveBits"];

/** Puts the double on `crypto.subtle` (the object the functions under convex-test use); returns its undo. */
export function cheapPasswordHashes(): () => void {
  const subtle = crypto.subtle;
  const real = subtle.deriveBits;
  const cheap: DeriveBits = (algorithm, baseKey, length) => {
    const params = algorithm as Pbkdf2Params;
    const costly = params.name === "PBKDF2" && params.iterations === PASSWORD_HASH.iterations;
    return real.call(
      subtle,
      costly ? { ...params, iterations: ITERATIONS } : algorithm,
      baseKey,
      length,
    );
  };
  subtle.deriveBits = cheap;
  return () => {
    subtle.deriveBits = real;
  };
}
