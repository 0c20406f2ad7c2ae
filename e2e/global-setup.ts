import { createAdmin } from "./create-admin";
import { deployment, E2E, E2E_WORKERS } from "./env";
import { enrolAdmin } from "./two-factor";

/**
 * The web servers are up by now: on each worker's deployment, create the admins the admin specs
 * sign in as, then set up an authenticator for each (an admin without one is sent to set it up
 * before the panel opens). The script runs first for both: while it blocks this process, the server
 * closes idle connections.
 */
export default async function globalSetup() {
  for (let index = 0; index < E2E_WORKERS; index++) {
    const on = deployment(index);
    const admins = [E2E.admin, E2E.adminNe];
    for (const admin of admins) createAdmin(admin, "inherit", on);
    for (const admin of admins) await enrolAdmin(admin, on);
  }
}
