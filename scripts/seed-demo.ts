/**
 * Seeds the catalogue and, on a database without customers, the demo marketplace (internal `seed:init`).
 *
 *   npm run seed:demo [-- --url http://127.0.0.1:3210] [--data .data]
 */
import { parseArgs } from "node:util";
import { adminCall, deploymentUrl } from "./admin-call";

const { values } = parseArgs({
  options: { url: { type: "string" }, data: { type: "string", default: ".data" } },
});
const result = await adminCall<{ demoCreated: boolean }>(values, "action", "seed:init", {
  demo: true,
});
console.log(
  result.demoCreated
    ? `Demo marketplace created on ${deploymentUrl(values)}; logins are listed in the README.`
    : `Catalogue up to date on ${deploymentUrl(values)}; demo data was not added (the database already has customers).`,
);
