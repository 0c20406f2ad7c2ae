// Usernames and passwords of admin accounts, checked before one is created.
import { fail } from "./errors";
import { PASSWORD_LENGTH } from "../rules/profile";
import { normalizeUsername } from "./users";

const USERNAME = /^[a-z0-9][a-z0-9._-]{2,31}$/;
const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A random password of `length` characters from an unambiguous alphabet. */
export function randomPassword(length = 20): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 256 is not a multiple of the alphabet size; the bias is negligible at 57 symbols x 20 characters.
  return Array.from(bytes, (b) => PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length]).join("");
}

/** Checks admin credentials before an admin account is created; returns them normalised. */
export function adminCredentials(args: { username: string; password?: string }): {
  username: string;
  password: string;
} {
  const username = normalizeUsername(args.username);
  if (!USERNAME.test(username)) {
    fail(
      "INVALID_INPUT",
      "Username: 3-32 characters, letters, digits, '.', '_' or '-', starting with a letter or digit.",
    );
  }
  const password = args.password ?? randomPassword();
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
    fail(
      "INVALID_INPUT",
      `Password must be ${PASSWORD_LENGTH.min}-${PASSWORD_LENGTH.max} characters.`,
    );
  }
  return { username, password };
}
