import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { anyApi } from "convex/server";
import { E2E } from "./env";
import { signedInClient, type Account } from "./people";

const run = promisify(execFile);

/**
 * An accepted booking at `scheduledFor`, for what only happens at a time the app does not book (a
 * no-show 40 minutes after it; a proposal lapsing 2 hours before it, a minute from now). The app books
 * whole times ahead only, and convex/ has no test-only path, so the booking is put in as a
 * deployment's admin puts data in: `npx convex import --append` with the e2e backend's admin key (the
 * schema still checks it). It has no bill lines, and its event log starts after its acceptance.
 */
export async function importedBooking(args: {
  customer: Account;
  professional: Account;
  scheduledFor: number;
  note?: string;
  service: { category: string; serviceName: string };
  city: { slug: string; name: string };
  address: string;
  pin: { lat: number; lng: number };
}): Promise<string> {
  const [asCustomer, asPro] = await Promise.all([
    signedInClient("customer", args.customer),
    signedInClient("professional", args.professional),
  ]);
  const viewer = (await asCustomer.query(anyApi.users.viewer, {})) as { _id: string };
  const proUser = (await asPro.query(anyApi.users.viewer, {})) as { _id: string };
  const pro = (await asPro.query(anyApi.professionals.me, {})) as { _id: string };
  const service = (await asCustomer.query(anyApi.catalog.serviceDetails, {
    ...args.service,
    location: args.city.name,
  })) as {
    _id: string;
    name: string;
    category: string;
    availableCities: { name: string; price: number }[];
  };
  const price = service.availableCities.find((c) => c.name === args.city.slug)!.price;
  const at = args.scheduledFor;
  const booking = {
    customerId: viewer._id,
    professionalId: pro._id,
    professionalUserId: proUser._id,
    services: [{ id: service._id, name: service.name, category: service.category, price }],
    address: args.address,
    pin: args.pin,
    city: args.city.slug,
    scheduledFor: at,
    jobMinutes: 60,
    ...(args.note !== undefined ? { note: args.note } : {}),
    price,
    status: "accepted",
    acceptedAt: Date.now(),
    updatedAt: Date.now(),
  };
  const work = mkdtempSync(path.join(tmpdir(), "e2e-import-"));
  try {
    const file = path.join(work, "bookings.jsonl");
    writeFileSync(file, `${JSON.stringify(booking)}\n`);
    const cli = path.resolve("node_modules/convex/bin/main.js");
    await run(process.execPath, [cli, "import", "--table", "bookings", "--append", "-y", file], {
      env: {
        PATH: process.env.PATH,
        HOME: work,
        CI: "1",
        CONVEX_SELF_HOSTED_URL: E2E.convexUrl,
        CONVEX_SELF_HOSTED_ADMIN_KEY: readFileSync(
          path.join(E2E.dataDir, "admin-key"),
          "utf8",
        ).trim(),
      },
      timeout: 90_000,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const { page } = (await asCustomer.query(anyApi.bookings.forCustomer, {
    paginationOpts: { numItems: 1, cursor: null },
  })) as { page: { _id: string; scheduledFor: number }[] };
  if (page[0]?.scheduledFor !== at) throw new Error("the imported booking was not found");
  return page[0]._id;
}
