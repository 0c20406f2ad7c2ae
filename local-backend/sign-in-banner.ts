/**
 * The start banner's last lines: where to sign in, so a newcomer need not scroll back for it. When
 * seed:init created the first admin this start, its one-time setup link (set a password, then
 * two-factor sign-in); otherwise how to get a link for another admin, or a new one.
 */
export function signInLines(options: {
  webOrigin: string;
  /**
   * seed:init's result when it ran: `adminCreated` names the admin it created this start and
   * `adminSetupToken` is that admin's one-time setup link's token.
   */
  seeded: { adminCreated?: unknown; adminSetupToken?: unknown } | undefined;
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
      typeof seeded.adminCreated === "string" && typeof seeded.adminSetupToken === "string"
        ? `  First admin:     ${seeded.adminCreated}: set its password and two-factor sign-in, once, at\n` +
            `                   ${adminSetupLink(webOrigin, seeded.adminSetupToken)}  (valid 24 hours)`
        : "  Admins:          a setup link for a new admin, or a new link for one: npm run create-admin -- <username>",
    );
  return lines;
}

/** The web app's page that redeems an admin's one-time setup link (scripts/create-admin.ts prints it too). */
export function adminSetupLink(webOrigin: string, token: string): string {
  return `${webOrigin}/admin-setup?${new URLSearchParams({ token })}`;
}
