import { createAdmin } from "./create-admin";
import { E2E } from "./env";

/** The web server is up by now: create the admins the admin specs sign in as. */
export default function globalSetup() {
  for (const admin of [E2E.admin, E2E.adminNe]) createAdmin(admin, "inherit");
}
