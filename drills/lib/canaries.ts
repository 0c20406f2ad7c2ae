/**
 * Canaries: unique strings planted in private fields (a home address, a document's storage id, a
 * session id). Each says who may see it; any response that carries one to anybody else is a leak.
 */

/** Who is asking: a signed-in user (maybe an admin) or a visitor. */
export type Viewer = { userId?: string; admin: boolean };

export type Canary = {
  value: string;
  /** What it stands for, for the report: "professional's home zip code". */
  label: string;
  /** Users who may see it, besides admins when `admins`. */
  users: string[];
  admins: boolean;
};

export function maySee(canary: Canary, viewer: Viewer): boolean {
  return (
    (canary.admins && viewer.admin) ||
    (viewer.userId !== undefined && canary.users.includes(viewer.userId))
  );
}

/** A fresh unique marker, e.g. "cnry-addr-9f2c41d0". */
export function canaryText(tag: string): string {
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  return `cnry-${tag}-${hex}`;
}

/** A fresh unique 10-digit mobile number (Nepal's 98…), which a phone field accepts. */
export function canaryPhone(): string {
  const digits = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b % 10).join("");
  return `98${digits}`;
}

/**
 * The canaries in `text` that `viewer` may not see; those in `sent` (the caller's own request: an id
 * they passed and the answer repeats) are the caller's already.
 */
export function leaked(text: string, sent: string, canaries: Canary[], viewer: Viewer): Canary[] {
  return canaries.filter(
    (c) => text.includes(c.value) && !sent.includes(c.value) && !maySee(c, viewer),
  );
}
