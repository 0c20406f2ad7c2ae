import { createAdmin } from "./create-admin";
import { E2E } from "./env";
import { enrolAdmin } from "./two-factor";

/**
 * The web server is up by now: create the admins the admin specs sign in as, then set up an
 * authenticator for each (an admin without one is sent to set it up before the panel opens). The
 * script runs first for both: while it blocks this process, the server closes idle connections.
 */
export default async function globalSetup() {
  const admins = [E2E.admin, E2E.adminNe];
  for (const admin of admins) createAdmin(admin, "inherit");
  for (const admin of admins) await enrolAdmin(admin);
}
