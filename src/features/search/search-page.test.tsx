import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { getFunctionName, type FunctionReference } from "convex/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import SearchPage from "@/features/search/search-page";

type Handler = (args: unknown) => unknown;
let queries: Record<string, Handler> = {};

vi.mock("convex/react", () => ({
  useConvexAuth: () => ({ isLoading: false, isAuthenticated: false }),
  useMutation: () => vi.fn(),
  useQuery: (ref: FunctionReference<"query">, args: unknown) => {
    if (args === "skip") return undefined;
    const handler = queries[getFunctionName(ref)];
    return handler ? handler(args) : undefined;
  },
}));
vi.mock("@/components/map/markers-map", () => ({
  MarkersMap: ({ markers }: { markers: { id: string; label: string }[] }) => (
    <ul aria-label="map">
      {markers.map((m) => (
        <li key={m.id}>{m.label}</li>
      ))}
    </ul>
  ),
}));
vi.mock("sonner", () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));
const { toast } = await import("sonner");

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/services/search" element={<SearchPage />} />
      </Routes>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  vi.clearAllMocks();
  vi.spyOn(console, "error").mockImplementation(() => {}); // React reports errors caught by boundaries
  queries = {
    "catalog:serviceNames": () => ["House Wiring", "Fan Installation"],
    "catalog:serviceDetails": () => null,
    "locations:current": () => [],
    "professionals:search": () => [],
  };
});
afterEach(cleanup);

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
    expect(screen.getByText("Nrs. 3,500")).toBeInTheDocument();
    expect(screen.getByText("Nrs: 3,500")).toBeInTheDocument();
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

  it("puts one marker per live position on the map", () => {
    queries["locations:current"] = () => [
      {
        professionalId: "p1",
        name: "Ram",
        specialtyName: "Electrician",
        lat: 28.05,
        lng: 81.61,
        exact: false,
        updatedAt: 0,
      },
      {
        professionalId: "p2",
        name: "Hari",
        specialtyName: "Electrician",
        lat: 28.06,
        lng: 81.62,
        exact: false,
        updatedAt: 0,
      },
    ];
    renderAt("/services/search?location=Nepalgunj&serviceName=Electrician");
    expect(screen.getByRole("list", { name: "map" }).children).toHaveLength(2);
  });
});
