import { cleanup, render as rtlRender, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ProfessionalBookings as BookingsPanel,
  type useProfessionalBookings,
} from "@/features/bookings/professional-bookings";
import { workQueue } from "@/features/bookings/work-queue";

const mutation = vi.fn();
// reports:mine answers no reports (features/bookings/report-action.tsx), chat:unread no messages,
// bills:get (features/bookings/bill) no bill, as for a booking of someone else's
vi.mock("convex/react", async () => {
  const { getFunctionName } = await import("convex/server");
  return {
    useMutation: () => mutation,
    usePaginatedQuery: vi.fn(),
    useQuery: (query: Parameters<typeof getFunctionName>[0]) =>
      getFunctionName(query) === "bills:get" ? null : [],
  };
});
const toastError = vi.fn();
vi.mock("sonner", () => ({ toast: { error: (m: string) => toastError(m), success: vi.fn() } }));
// rendered outside a router: no booking is linked from a notification (?booking=)
vi.mock("@/lib/linked-booking", () => ({
  useLinkedBooking: () => ({ linked: false, scrollTarget: undefined }),
  useLinkedBookingId: () => null,
}));

// the cards link to their conversations
const render = (ui: ReactElement) => rtlRender(ui, { wrapper: MemoryRouter });

type Paginated = ReturnType<typeof useProfessionalBookings>;
type Booking = Paginated["results"][number];

function booking(id: string, status: Booking["status"], customer = "Sita Sharma"): Booking {
  return {
    _id: id,
    _creationTime: 0,
    status,
    services: [
      {
        id: "s1",
        name: "Fan Installation",
        category: "electrical",
        categoryName: "Electrical",
        price: 500,
      },
    ],
    address: "Ward 4, Tribhuvan Chowk",
    city: "nepalgunj",
    cityName: "Nepalgunj",
    scheduledFor: Date.UTC(2025, 0, 5, 9, 0),
    note: null,
    price: 500,
    cancelReason: null,
    updatedAt: 0,
    customer: { _id: "c1", name: customer, phone: null, photoUrl: null },
    professional: {
      _id: "p1",
      name: "Ram",
      photoUrl: null,
      specialty: "electrician",
      specialtyName: "Electrician",
      phone: null,
    },
    canReview: false,
    reschedule: { pending: null, history: [], left: 3, closesAt: 0 },
  } as unknown as Booking;
}

function paginated(results: Booking[], status: Paginated["status"] = "Exhausted"): Paginated {
  return {
    results,
    status,
    isLoading: status === "LoadingFirstPage",
    loadMore: vi.fn(),
  } as unknown as Paginated;
}

afterEach(() => {
  cleanup();
  mutation.mockReset();
  toastError.mockReset();
});

describe("BookingsPanel", () => {
  it("shows the empty text", () => {
    render(<BookingsPanel bookings={paginated([])} />);
    expect(screen.getByText("No bookings available.")).toBeInTheDocument();
  });

  it("highlights only requests that arrive after the first load", () => {
    const old = booking("b1", "requested", "Old Customer");
    const { rerender } = render(<BookingsPanel bookings={paginated([], "LoadingFirstPage")} />);
    rerender(<BookingsPanel bookings={paginated([old])} />);
    expect(screen.queryByText("New")).not.toBeInTheDocument();

    rerender(
      <BookingsPanel bookings={paginated([booking("b2", "requested", "Bikash Shrestha"), old])} />,
    );
    const fresh = screen.getByRole("listitem", { name: "Booking from Bikash Shrestha" });
    expect(within(fresh).getByText("New")).toBeInTheDocument();
    expect(screen.getByText("1 new request")).toBeInTheDocument();
    expect(
      within(screen.getByRole("listitem", { name: "Booking from Old Customer" })).queryByText(
        "New",
      ),
    ).toBeNull();
  });

  it("shows customer, services, address, Kathmandu time with the BS date, and price", () => {
    render(<BookingsPanel bookings={paginated([booking("b1", "requested")])} />);
    const item = screen.getByRole("listitem", { name: "Booking from Sita Sharma" });
    expect(within(item).getByText("Fan Installation")).toBeInTheDocument();
    expect(within(item).getByText("Ward 4, Tribhuvan Chowk, Nepalgunj")).toBeInTheDocument();
    expect(within(item).getByText(/5 Jan 2025 \(21 Poush 2081 BS\), 2:45 PM/)).toBeInTheDocument();
    expect(within(item).getByText("Nrs. 500")).toBeInTheDocument();
  });

  it("offers the next step for each status and hides Accept/Reject once decided", () => {
    render(
      <BookingsPanel
        bookings={paginated([
          booking("a", "accepted", "A"),
          booking("r", "rejected", "R"),
          booking("e", "en_route", "E"),
          booking("i", "in_progress", "I"),
        ])}
      />,
    );
    // every card also offers "Report a problem"; the lifecycle steps come before it
    const buttons = (name: string) =>
      within(screen.getByRole("listitem", { name: `Booking from ${name}` }))
        .queryAllByRole("button")
        .map((b) => b.textContent)
        .filter((text) => text !== "Report a problem");
    expect(buttons("A")).toEqual(["Start trip", "Cancel job"]);
    expect(
      within(screen.getByRole("listitem", { name: "Booking from A" })).getByText("Accepted"),
    ).toBeInTheDocument();
    expect(buttons("R")).toEqual([]);
    expect(
      within(screen.getByRole("listitem", { name: "Booking from R" })).getByText("Rejected"),
    ).toBeInTheDocument();
    expect(buttons("E")).toEqual(["Arrived", "Cancel job"]);
    expect(buttons("I")).toEqual(["Complete"]);
    for (const name of ["A", "R", "E", "I"])
      expect(
        within(screen.getByRole("listitem", { name: `Booking from ${name}` })).getByRole("button", {
          name: "Report a problem",
        }),
      ).toBeInTheDocument();
  });

  it("calls the mutation on Accept and shows a toast with the server's message when it fails", async () => {
    mutation.mockRejectedValue(
      new ConvexError({ code: "ILLEGAL_TRANSITION", message: "This booking has expired." }),
    );
    render(<BookingsPanel bookings={paginated([booking("b1", "requested")])} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Accept" }));
    expect(mutation).toHaveBeenCalledWith({ bookingId: "b1" });
    expect(toastError).toHaveBeenCalledWith("This booking has expired.");
    expect(screen.getByRole("button", { name: "Accept" })).toBeEnabled();
  });

  it("puts a new request above reviewed and accepted jobs; jobs by booked time", () => {
    const at = (id: string, status: Booking["status"], hour: number) => ({
      ...booking(id, status),
      scheduledFor: Date.UTC(2025, 0, 5, hour),
    });
    const order = workQueue([
      at("reviewed", "reviewed", 1),
      at("late", "accepted", 9),
      at("early", "en_route", 5),
      at("new", "requested", 12),
    ]).map((q) => q.booking._id);
    expect(order).toEqual(["new", "early", "late", "reviewed"]);
  });

  it("warns of a clash with an accepted job and accepts only after confirmation", async () => {
    mutation.mockResolvedValue(null);
    const job = { ...booking("a", "accepted", "A"), scheduledFor: Date.UTC(2025, 0, 5, 9) };
    const clash = {
      ...booking("r", "requested", "R"),
      scheduledFor: Date.UTC(2025, 0, 5, 10),
    };
    render(<BookingsPanel bookings={paginated([job, clash])} />);
    const item = screen.getByRole("listitem", { name: "Booking from R" });
    expect(within(item).getByRole("note")).toHaveTextContent("Clashes with your accepted job");
    const user = userEvent.setup();
    await user.click(within(item).getByRole("button", { name: "Accept" }));
    expect(mutation).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Accept anyway" }));
    expect(mutation).toHaveBeenCalledWith({ bookingId: "r", confirmClash: true });
  });

  it("holds Start trip until an hour before the booked time, and says from when", () => {
    const later = { ...booking("a", "accepted", "A"), scheduledFor: Date.now() + 3 * 3_600_000 };
    render(<BookingsPanel bookings={paginated([later])} />);
    const item = screen.getByRole("listitem", { name: "Booking from A" });
    expect(within(item).getByRole("button", { name: "Start trip" })).toBeDisabled();
    expect(within(item).getByText(/You can start this job from/)).toBeInTheDocument();
  });
});
