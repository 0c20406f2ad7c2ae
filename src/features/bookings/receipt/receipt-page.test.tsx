import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import ReceiptPage from "@/features/bookings/receipt/receipt-page";

let answer: unknown;
vi.mock("convex/react", () => ({
  useConvexAuth: () => ({ isLoading: false, isAuthenticated: true }),
  useQuery: () => answer,
}));

// 5 Jan 2025, 3:45 PM in Kathmandu = 21 Poush 2081 BS
const AT = Date.UTC(2025, 0, 5, 10, 0);

const khalti = {
  number: "GS-000042",
  issuedAt: AT,
  paidAt: AT,
  method: "khalti",
  amountPaisa: 110_050,
  reference: "pidx-abc",
  gatewayId: "GFq9PFS7b2iYvL8Lir9oXe",
  paidTo: "platform",
  cashConfirmedAt: null,
  lines: [
    { kind: "service", label: "Fan Installation", amountPaisa: 65_000 },
    { kind: "part", label: "Capacitor", amountPaisa: 45_050 },
  ],
  totalPaisa: 110_050,
  jobAt: AT,
  city: "kathmandu",
  customerName: "Sita Sharma",
  professionalName: "Ram Thapa",
};

function open() {
  render(
    <MemoryRouter initialEntries={["/receipts/b1"]}>
      <Routes>
        <Route path="/receipts/:bookingId" element={<ReceiptPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe("the receipt page", () => {
  it("shows the number, both calendars, the lines, the total and the gateway's id", () => {
    answer = khalti;
    open();
    const receipt = screen.getByRole("article", { name: "Receipt" });
    expect(within(receipt).getByTestId("receipt-number")).toHaveTextContent("GS-000042");
    expect(receipt).toHaveTextContent("21 Poush 2081 BS");
    expect(receipt).toHaveTextContent("5 Jan 2025");
    expect(receipt).toHaveTextContent("Capacitor");
    expect(within(receipt).getByTestId("receipt-total")).toHaveTextContent("Nrs. 1,100.50");
    expect(receipt).toHaveTextContent("Khalti transaction id");
    expect(receipt).toHaveTextContent("GFq9PFS7b2iYvL8Lir9oXe");
    expect(receipt).toHaveTextContent("GharSewa, through Khalti");
  });

  it("names the professional as paid for cash, with no gateway id", () => {
    answer = {
      ...khalti,
      method: "cash",
      reference: null,
      gatewayId: null,
      paidTo: "professional",
      cashConfirmedAt: AT,
    };
    open();
    const receipt = screen.getByRole("article", { name: "Receipt" });
    expect(receipt).toHaveTextContent("Paid toRam Thapa");
    expect(receipt).not.toHaveTextContent("transaction id");
    expect(receipt).toHaveTextContent("Cash confirmed");
  });

  it("says not found when the server answers none", () => {
    answer = null;
    open();
    expect(screen.getByText("No receipt here")).toBeInTheDocument();
    expect(screen.queryByRole("article")).toBeNull();
  });
});
