import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { getFunctionName, type FunctionReference } from "convex/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SearchPage } from "@/features/search/search-page";
import type { BookActionProps } from "@/lib/booking-intent";

const BookAction = ({ professional }: BookActionProps) => <span>Book {professional.name}</span>;

type Handler = (args: unknown) => unknown;
let queries: Record<string, Handler> = {};
let isAuthenticated = false;

vi.mock("convex/react", () => ({
  useConvexAuth: () => ({ isLoading: false, isAuthenticated }),
  useMutation: () => vi.fn(),
  useQuery: (ref: FunctionReference<"query">, args: unknown) => {
    if (args === "skip") return undefined;
    const handler = queries[getFunctionName(ref)];
    return handler ? handler(args) : undefined;
  },
  useQueries: (requests: Record<string, { query: FunctionReference<"query">; args: unknown }>) =>
    Object.fromEntries(
      Object.entries(requests).map(([key, { query, args }]) => [
        key,
        queries[getFunctionName(query)]?.(args),
      ]),
    ),
}));
type DrawnMarker = { id: string; label: string; lat: number; lng: number; exact: boolean };
let mapSpy: (markers: DrawnMarker[]) => void = () => {};
vi.mock("@/components/map/markers-map", () => ({
  MarkersMap: ({ markers }: { markers: DrawnMarker[] }) => (
    mapSpy(markers),
    (
      <ul aria-label="map">
        {markers.map((m) => (
          <li key={m.id}>{m.label}</li>
        ))}
      </ul>
    )
  ),
}));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));
const { toast } = await import("sonner");

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/services/search" element={<SearchPage BookAction={BookAction} />} />
      </Routes>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  vi.clearAllMocks();
  isAuthenticated = false;
  mapSpy = () => {};
  vi.spyOn(console, "error").mockImplementation(() => {}); // React reports errors caught by boundaries
  queries = {
    "catalog:serviceNames": () => ["House Wiring", "Fan Installation"],
    "catalog:serviceDetails": () => null,
    "locations:onMap": () => [],
    "professionals:search": () => [],
  };
});
afterEach(cleanup);

/** locations:onMap lists these professionals; locations:marker answers each one's position (null: off the map). */
function listOnMap(positions: Record<string, { lat: number; lng: number } | null>) {
  queries["locations:onMap"] = () =>
    Object.keys(positions).map((id) => ({
      professionalId: id,
      name: `Pro ${id}`,
      specialty: "electrician",
      specialtyName: "Electrician",
    }));
  queries["locations:marker"] = (args) =>
    positions[(args as { professionalId: string }).professionalId];
}

describe("SearchPage", () => {
  it("derives the category from serviceName and asks for a service first", async () => {
    const seen: unknown[] = [];
    queries["catalog:serviceNames"] = (args) => (seen.push(args), ["House Wiring"]);
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician");
    expect(seen[0]).toEqual({ category: "electrical" });
    expect(screen.getByLabelText("Select Service")).toBeInTheDocument();
    expect(screen.getByText("Please select a service to view details.")).toBeInTheDocument();
  });

  it("shows details with price and service charge", async () => {
    queries["catalog:serviceDetails"] = () => ({
      _id: "s1",
      name: "House Wiring",
      category: "electrical",
      description: "Complete wiring",
      serviceWarranty: "90 days",
      availableCities: [{ name: "nepalgunj", cityName: "Nepalgunj", price: 3500 }],
      totalBookings: 4,
    });
    const user = renderAt("/services/search?location=Nepalgunj&serviceName=Electrician");
    await user.selectOptions(screen.getByLabelText("Select Service"), "House Wiring");
    // the price and the service charge, in the same currency words
    expect(screen.getAllByText("Nrs. 3,500")).toHaveLength(2);
    expect(screen.getByText("90 days")).toBeInTheDocument();
    expect(screen.getByText("4")).toBeInTheDocument();
  });

  it("says the service may not be offered when details are missing", async () => {
    const user = renderAt(
      "/services/search?location=Pokhara&serviceName=Laundry&service=House%20Wiring",
    );
    expect(
      screen.getByText("Service may not be available for the selected location."),
    ).toBeInTheDocument();
    expect(screen.getByText("Price not available")).toBeInTheDocument();
    expect(screen.getByText("Location not available")).toBeInTheDocument();
    expect(screen.getByText("Not available")).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText("Select Service"), "");
    expect(screen.getByText("Please select a service to view details.")).toBeInTheDocument();
  });

  it("toasts when service names cannot be fetched", () => {
    queries["catalog:serviceNames"] = () => {
      throw new Error("offline");
    };
    renderAt("/services/search?location=Nepalgunj&serviceName=Plumber");
    expect(toast.error).toHaveBeenCalledWith("Failed to fetch service names");
  });

  it("toasts when service details cannot be fetched", async () => {
    queries["catalog:serviceDetails"] = () => {
      throw new Error("offline");
    };
    const user = renderAt("/services/search?location=Nepalgunj&serviceName=Electrician");
    await user.selectOptions(screen.getByLabelText("Select Service"), "Fan Installation");
    expect(toast.error).toHaveBeenCalledWith("Failed to fetch service details");
  });

  it("leaves out the professional who declined, and says when nobody else is left", async () => {
    const row = (id: string, name: string) => ({
      _id: id,
      name,
      photoUrl: null,
      verified: true,
      available: true,
      specialty: "electrician",
      specialtyName: "Electrician",
      city: "nepalgunj",
      rating: { average: 0, count: 0 },
    });
    queries["professionals:search"] = () => [row("p1", "Ram"), row("p2", "Sita")];
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician&without=p1");
    expect(await screen.findByText("Book Sita")).toBeInTheDocument();
    expect(screen.queryByText("Book Ram")).not.toBeInTheDocument();
    cleanup();
    queries["professionals:search"] = () => [row("p1", "Ram")];
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician&without=p1");
    expect(screen.queryByText("Book Ram")).not.toBeInTheDocument();
    expect(
      screen.getByText("No other professionals in Nepalgunj for this service yet."),
    ).toBeInTheDocument();
  });

  it("puts one marker per live position on the map, each from its own subscription", () => {
    listOnMap({ p1: { lat: 28.05, lng: 81.61 }, p2: { lat: 28.06, lng: 81.62 }, p3: null });
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician");
    expect(screen.getByRole("list", { name: "map" }).children).toHaveLength(2);
  });

  it("leaves the professional the customer is looking past off the map and its count", () => {
    listOnMap({ p1: { lat: 28.05, lng: 81.61 }, p2: { lat: 28.06, lng: 81.62 } });
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician&without=p1");
    const map = screen.getByRole("list", { name: "map" });
    expect(map.children).toHaveLength(1);
    expect(map).toHaveTextContent("Pro p2");
    expect(map).not.toHaveTextContent("Pro p1");
    expect(screen.getByText(/^1 professional/)).toBeInTheDocument();
  });

  it("a customer sees the exact position of an active booking's professional in place of the rounded one", () => {
    listOnMap({ p1: { lat: 28.05, lng: 81.615 }, p2: { lat: 28.05, lng: 81.615 } });
    queries["users:viewer"] = () => ({ role: "customer" });
    const asked: unknown[] = [];
    queries["locations:forActiveBookings"] = (args) => (
      asked.push(args),
      [{ bookingId: "b1", professionalId: "p2", lat: 28.0605, lng: 81.6301, updatedAt: 1 }]
    );
    let drawn: { id: string; lat: number; lng: number; exact: boolean }[] = [];
    mapSpy = (markers) => (drawn = markers);
    isAuthenticated = true;
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician");
    // once per render, always without arguments (identity from the session)
    expect(asked).not.toHaveLength(0);
    expect(asked.filter((args) => JSON.stringify(args) !== "{}")).toEqual([]);
    expect(drawn).toEqual([
      expect.objectContaining({ id: "p1", lat: 28.05, lng: 81.615, exact: false }),
      expect.objectContaining({ id: "p2", lat: 28.0605, lng: 81.6301, exact: true }),
    ]);
  });

  it("asks for exact positions only for signed-in customers", () => {
    const asked: unknown[] = [];
    queries["locations:forActiveBookings"] = (args) => (asked.push(args), []);
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician");
    cleanup();
    isAuthenticated = true;
    queries["users:viewer"] = () => ({ role: "professional" });
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician");
    expect(asked).toEqual([]);
  });
});
