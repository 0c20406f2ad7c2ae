import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { getFunctionName, type FunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BOOKING_LIMITS } from "@convex/rules/limits";
import { BookingDialog } from "@/features/bookings/booking-dialog";
import { fromKathmanduInputValue } from "@/lib/format";

const create = vi.fn();
const PRICES: Record<string, number> = { "Fan Installation": 500, "House Wiring": 3500 };
/** Tomorrow 10:00 and 10:30 in Kathmandu (04:15 and 04:45 UTC). */
const TEN = (() => {
  const d = new Date(Date.now() + 24 * 3_600_000 + (5 * 60 + 45) * 60_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 4, 15);
})();
let free = { jobMinutes: 120, slots: [TEN, TEN + 1_800_000], refusal: null };

vi.mock("convex/react", () => ({
  useMutation: () => create,
  useQuery: (ref: FunctionReference<"query">, args: { serviceName?: string }) => {
    const name = getFunctionName(ref);
    if (name === "catalog:serviceNames") return Object.keys(PRICES);
    if (name === "bookings:freeSlots") return free;
    if (name === "catalog:serviceDetails") {
      const s = args.serviceName!;
      return {
        _id: `id-${s}`,
        availableCities: [{ name: "nepalgunj", cityName: "Nepalgunj", price: PRICES[s] }],
      };
    }
    return undefined;
  },
}));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
const { toast } = await import("sonner");

const onClose = vi.fn();
function renderDialog() {
  render(
    <MemoryRouter>
      <BookingDialog
        professional={{
          _id: "pro1" as never,
          name: "Ram Thapa",
          city: "nepalgunj",
          cityName: "Nepalgunj",
          specialtyName: "Electrician",
          verified: true,
          available: true,
          workingHours: null,
        }}
        category="electrical"
        defaultAddress="Ward 4, Nepalgunj"
        onClose={onClose}
      />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  vi.clearAllMocks();
  free = { jobMinutes: 120, slots: [TEN, TEN + 1_800_000], refusal: null };
});
afterEach(cleanup);

describe("BookingDialog", () => {
  it("totals the chosen services in Nrs. and books them", async () => {
    const user = renderDialog();
    await user.click(screen.getByRole("checkbox", { name: /Fan Installation/ }));
    await user.click(screen.getByRole("checkbox", { name: /House Wiring/ }));
    expect(screen.getByText("Nrs. 4,000")).toBeInTheDocument();
    // the profile address's street only: the booking's city is the professional's
    expect(screen.getByLabelText("Address")).toHaveValue("Ward 4");
    await user.click(screen.getByRole("button", { name: "Confirm booking" }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    const args = create.mock.calls[0][0];
    expect(args).toMatchObject({
      professionalId: "pro1",
      serviceIds: ["id-Fan Installation", "id-House Wiring"],
      city: "nepalgunj",
      address: "Ward 4",
    });
    expect(args.scheduledFor).toBeGreaterThan(Date.now());
  });

  it("says why the server refused the request inside the dialog (not under its backdrop) and stays open", async () => {
    create.mockRejectedValueOnce(
      new ConvexError({
        code: "TOO_MANY_OPEN_REQUESTS",
        message: `You already have ${BOOKING_LIMITS.openPerProfessional} open bookings with this professional. Wait for an answer, or cancel one.`,
      }),
    );
    const user = renderDialog();
    expect(
      screen.getByText(/You may have 2 open bookings with one professional/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: /Fan Installation/ }));
    await user.click(screen.getByRole("button", { name: "Confirm booking" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "You already have 2 open bookings with this professional. Wait for an answer, or cancel one.",
    );
    expect(screen.getByRole("dialog")).toContainElement(screen.getByRole("alert"));
    expect(toast.error).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("refuses a time in the past and an empty choice", async () => {
    const user = renderDialog();
    const when = screen.getByLabelText("Date and time (Nepal time)");
    await user.clear(when);
    await user.type(when, "2020-01-01T10:00");
    expect(fromKathmanduInputValue("2020-01-01T10:00")).toBeLessThan(Date.now());
    await user.click(screen.getByRole("button", { name: "Confirm booking" }));
    expect(await screen.findByText("The date and time must be in the future.")).toBeInTheDocument();
    expect(screen.getByText("Choose at least one service.")).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();
  });

  it("books a free time picked from the slots, with its Bikram Sambat date beside it", async () => {
    const user = renderDialog();
    expect(
      screen.getByText("This job takes about 2 h; each time below leaves room for it."),
    ).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Days" })).toHaveTextContent(/BS/);
    await user.click(screen.getByRole("checkbox", { name: /Fan Installation/ }));
    await user.click(screen.getByRole("button", { name: "10:30 AM" }));
    expect(screen.getByRole("button", { name: "10:30 AM" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await user.click(screen.getByRole("button", { name: "Confirm booking" }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(create.mock.calls[0][0].scheduledFor).toBe(TEN + 1_800_000);
  });

  it("a time just taken is refused with the next free times, and one of them can be picked", async () => {
    create.mockRejectedValueOnce(
      new ConvexError({
        code: "SLOT_TAKEN",
        message:
          "This time was just taken: the professional has another job then. Please choose another time.",
        next: [TEN + 3 * 3_600_000],
      }),
    );
    const user = renderDialog();
    await user.click(screen.getByRole("checkbox", { name: /Fan Installation/ }));
    await user.click(screen.getByRole("button", { name: "10:00 AM" }));
    await user.click(screen.getByRole("button", { name: "Confirm booking" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This time was just taken");
    const next = screen.getByRole("group", { name: "Next free times:" });
    await user.click(within(next).getByRole("button", { name: /1:00 PM/ }));
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Confirm booking" }));
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(2));
    expect(create.mock.calls[1][0].scheduledFor).toBe(TEN + 3 * 3_600_000);
  });
});
