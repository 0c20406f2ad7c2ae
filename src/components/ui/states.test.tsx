import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { ErrorState, InlineAlert } from "@/components/ui/states";

afterEach(cleanup);

const query = { broken: true };
function Panel() {
  if (query.broken) throw new Error("query failed");
  return <p>Loaded</p>;
}

describe("ErrorState", () => {
  it("shows only its title without children or onRetry", () => {
    render(<ErrorState title="Broken." />);
    expect(screen.getByRole("alert")).toHaveTextContent(/^Broken\.$/);
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("with onRetry, offers 'Try again' after its children and retries the boundary", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    query.broken = true;
    render(
      <ErrorBoundary
        fallback={(_, retry) => (
          <ErrorState title="Could not load." onRetry={retry}>
            <p>Check your connection.</p>
          </ErrorState>
        )}
      >
        <Panel />
      </ErrorBoundary>,
    );
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Could not load.Check your connection.Try again",
    );
    query.broken = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(screen.getByText("Loaded")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    vi.restoreAllMocks();
  });
});

describe("InlineAlert", () => {
  it("announces errors as alerts (red) and successes as status (green)", () => {
    render(
      <>
        <InlineAlert tone="error">Failed.</InlineAlert>
        <InlineAlert tone="success" className="mt-2">
          Done.
        </InlineAlert>
      </>,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Failed.");
    expect(screen.getByRole("alert").className).toMatch(/bg-red-50/);
    expect(screen.getByRole("status")).toHaveTextContent("Done.");
    expect(screen.getByRole("status").className).toMatch(/bg-green-50.*mt-2/);
  });
});
