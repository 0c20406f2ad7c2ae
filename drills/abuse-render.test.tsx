// @vitest-environment jsdom
/**
 * Abuse: script tags in names, notes and reviews are stored as plain text, come back verbatim, and the
 * components that show them (the professional's bookings panel, the customer's My Bookings) render
 * them as text, not elements.
 */
import "@testing-library/jest-dom/vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { getFunctionName, type FunctionReference } from "convex/server";
import { MemoryRouter } from "react-router-dom";
import { Blob as NodeBlob } from "node:buffer";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { api, internal } from "../convex/_generated/api";
import {
  insertCustomer,
  insertProfessional,
  newTest,
  startWithCustomersCode,
  useAuthEnv,
} from "../convex/test.setup";

const NAME = `<script>window.__pwned = "name"</script>Sita`;
const PRO_NAME = `<img src=x onerror="window.__pwned='pro'">Ram`;
const NOTE = `Please come <script>window.__pwned = "note"</script><b>early</b>`;
const COMMENT = `<script>window.__pwned = "review"</script><iframe src="javascript:alert(1)"></iframe>Great`;

/** What convex/react's hooks return in these renders: the real query results, by function name. */
const results = new Map<string, unknown>();
vi.mock("convex/react", () => ({
  useMutation: () => vi.fn(),
  useQuery: (ref: FunctionReference<"query">) => results.get(getFunctionName(ref)),
  usePaginatedQuery: (ref: FunctionReference<"query">) => ({
    results: results.get(getFunctionName(ref)) ?? [],
    status: "Exhausted",
    isLoading: false,
    loadMore: vi.fn(),
  }),
  useConvexAuth: () => ({ isAuthenticated: true, isLoading: false }),
}));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

let stored: { name: string; proName: string; note: string; comment: string | null };

beforeAll(async () => {
  // jsdom's Blob has no arrayBuffer(), which convex-test's storage needs
  globalThis.Blob = NodeBlob as unknown as typeof Blob;
  await useAuthEnv();
  const t = newTest();
  await t.mutation(internal.seed.catalogAndSettings, {});
  const customer = await insertCustomer(t, "Placeholder Name");
  const pro = await insertProfessional(t, {
    name: PRO_NAME,
    specialty: "electrician",
    city: "kathmandu",
  });
  await customer.as.mutation(api.users.updateProfile, {
    name: NAME,
    phone: "9800000001",
    address: "Ward 4",
    zipCode: "44600",
  });
  const service = await t.run(
    async (ctx) =>
      (await ctx.db
        .query("services")
        .withIndex("by_category_and_name", (q) => q.eq("category", "electrical"))
        .first())!,
  );
  const book = () =>
    customer.as.mutation(api.bookings.create, {
      professionalId: pro.professionalId,
      serviceIds: [service._id],
      address: "Ward 2, Thamel",
      city: "kathmandu",
      scheduledFor: Date.now() + 3_600_000,
      note: NOTE,
    });
  const reviewed = await book();
  for (const step of [api.bookings.accept, api.bookings.startTrip, api.bookings.arrive])
    await pro.as.mutation(step, { bookingId: reviewed });
  await startWithCustomersCode(customer.as, pro.as, reviewed);
  await pro.as.mutation(api.bookings.complete, { bookingId: reviewed });
  // a job that took an hour, confirmed by its customer
  await t.run((ctx) =>
    ctx.db.patch("bookings", reviewed, { acceptedAt: Date.now() - 60 * 60_000 }),
  );
  await customer.as.mutation(api.bookings.confirmDone, { bookingId: reviewed });
  await customer.as.mutation(api.reviews.create, {
    bookingId: reviewed,
    rating: 5,
    comment: COMMENT,
  });
  await book(); // a fresh request too

  const page = { paginationOpts: { numItems: 10, cursor: null } };
  const forProfessional = (await pro.as.query(api.bookings.forProfessional, page)).page;
  const forCustomer = (await customer.as.query(api.bookings.forCustomer, page)).page;
  const reviews = await t.query(api.reviews.forProfessional, {
    professionalId: pro.professionalId,
  });
  const raw = await t.run(async (ctx) => ({
    user: (await ctx.db.get("users", customer.userId))!,
    booking: (await ctx.db.get("bookings", reviewed))!,
    review: (await ctx.db.query("reviews").first())!,
  }));
  stored = {
    name: raw.user.name!,
    proName: forCustomer[0].professional.name,
    note: raw.booking.note!,
    comment: raw.review.comment ?? null,
  };
  expect(forProfessional[0].customer.name).toBe(NAME);
  expect(reviews[0].comment).toBe(COMMENT);
  results.set(getFunctionName(api.bookings.forProfessional), forProfessional);
  results.set(getFunctionName(api.bookings.forCustomer), forCustomer);
  results.set(getFunctionName(api.locations.forBooking), null);
}, 60_000);

afterEach(cleanup);

describe("script tags render as text", () => {
  test("names, notes and review comments are stored verbatim", () => {
    expect(stored).toEqual({ name: NAME, proName: PRO_NAME, note: NOTE, comment: COMMENT });
  });

  test("the professional's bookings panel shows the customer's name and note as text", async () => {
    const { ProfessionalBookings } = await import("@/features/bookings/professional-bookings");
    const bookings = {
      results: results.get(getFunctionName(api.bookings.forProfessional)),
      status: "Exhausted",
      isLoading: false,
      loadMore: vi.fn(),
    };
    const { container } = render(
      <MemoryRouter>
        <ProfessionalBookings bookings={bookings as never} />
      </MemoryRouter>,
    );
    expect(container.querySelector("script, img[src='x'], iframe, b")).toBeNull();
    expect(screen.getAllByText(NAME, { exact: false }).length).toBeGreaterThan(0);
    expect(container.textContent).toContain(`<script>window.__pwned = "note"</script><b>early</b>`);
    expect((window as { __pwned?: string }).__pwned).toBeUndefined();
  });

  test("the customer's My Bookings shows the professional's name and the note as text", async () => {
    const { CustomerBookings } = await import("@/features/bookings/customer-bookings");
    const { container } = render(
      <MemoryRouter>
        <CustomerBookings />
      </MemoryRouter>,
    );
    expect(container.querySelector("script, iframe, b, img[src='x']")).toBeNull();
    expect(container.textContent).toContain(PRO_NAME);
    expect(container.textContent).toContain(NOTE);
    expect((window as { __pwned?: string }).__pwned).toBeUndefined();
    console.log(
      "abuse: script tags in a name, a professional's name, a note and a review comment stored verbatim, rendered as text",
    );
  });
});
