/**
 * The start banner's last lines: where to sign in, so a newcomer need not scroll back for it. The
 * first admin's password is printed once, above, by seed:init; this says so, or how to get another.
 */
export function signInLines(options: {
  webOrigin: string;
  /** seed:init's result when it ran: `adminCreated` names the admin it created this start. */
  seeded: { adminCreated?: unknown } | undefined;
  demo: boolean;
}): string[] {
  const { webOrigin, seeded, demo } = options;
  const lines = [
    `  Sign in:         ${webOrigin}/login (customers), /professional-signin, /admin-login`,
  ];
  if (demo)
    lines.push(
      "  Demo logins:     customer@demo.np, professional@demo.np (password demo-password-1)",
    );
  if (seeded !== undefined)
    lines.push(
      typeof seeded.adminCreated === "string"
        ? `  First admin:     ${seeded.adminCreated}, its password printed above (shown only this once)`
        : "  Admins:          the first was created on an earlier start; another: npm run create-admin -- <username>",
    );
  return lines;
}
