import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useRoutes } from "react-router-dom";
import { Link } from "@/components/link";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PageReadyRouter } from "@/app/page-ready-router";

/** The pages under a PageReadyRouter whose loads the test settles, one per pathname asked for. */
function renderPages() {
  const pending = new Map<string, () => void>();
  const asked: string[] = [];
  const load = (pathname: string) => {
    asked.push(pathname);
    return new Promise<void>((resolve) => pending.set(pathname, resolve));
  };
  // waitFor() renders outside act(), so React schedules the navigation's render as in a browser
  const finish = (pathname: string, page: string) => {
    pending.get(pathname)!();
    return waitFor(() => expect(screen.getByRole("heading").textContent).toBe(page));
  };
  render(
    <PageReadyRouter load={load}>
      <Pages />
    </PageReadyRouter>,
  );
  return { asked, finish };
}

function Pages() {
  return useRoutes([
    {
      path: "/signup",
      element: (
        <main>
          <h1>Sign up</h1>
          <Link to="/login?returnTo=%2Fsearch">Log in</Link>
          <Link to="/about">About</Link>
        </main>
      ),
    },
    { path: "/login", element: <h1>Log in</h1> },
    {
      path: "/about",
      element: (
        <main>
          <h1>About</h1>
          <Link to="/about?part=team">Team</Link>
        </main>
      ),
    },
  ]);
}

beforeEach(() => window.history.replaceState(null, "", "/signup"));
afterEach(cleanup);

describe("PageReadyRouter", () => {
  it("keeps the URL and the page until the next page's modules have loaded, then changes both", async () => {
    const { asked, finish } = renderPages();
    await userEvent.click(screen.getByRole("link", { name: "Log in" }));

    expect(asked).toEqual(["/login"]);
    expect(window.location.pathname).toBe("/signup");
    expect(screen.getByRole("heading").textContent).toBe("Sign up");

    let pageWhenUrlChanged = "";
    const onPush = window.history.pushState.bind(window.history);
    window.history.pushState = (...args) => {
      onPush(...args);
      queueMicrotask(() => (pageWhenUrlChanged = screen.getByRole("heading").textContent ?? ""));
    };
    await finish("/login", "Log in");
    window.history.pushState = onPush;

    expect(window.location.pathname + window.location.search).toBe("/login?returnTo=%2Fsearch");
    // rendered in the task that changed the URL: nothing saw the new URL over the old page
    expect(pageWhenUrlChanged).toBe("Log in");
  });

  it("goes where the last navigation asked when an earlier one loads later", async () => {
    const { finish } = renderPages();
    await userEvent.click(screen.getByRole("link", { name: "Log in" }));
    await userEvent.click(screen.getByRole("link", { name: "About" }));
    await finish("/about", "About");
    await finish("/login", "About");

    expect(window.location.pathname).toBe("/about");
    expect(screen.getByRole("heading").textContent).toBe("About");
  });

  it("drops a navigation still loading when the user goes back meanwhile", async () => {
    window.history.replaceState({ idx: 0 }, "", "/about");
    window.history.pushState({ idx: 1 }, "", "/signup");
    const { finish } = renderPages();
    await userEvent.click(screen.getByRole("link", { name: "Log in" }));
    window.history.back();
    await waitFor(() => expect(screen.getByRole("heading").textContent).toBe("About"));
    await finish("/login", "About");

    expect(window.location.pathname).toBe("/about");
  });

  it("opens a link to another page at its top, and keeps the place within the same page", async () => {
    const scrollTo = vi.spyOn(window, "scrollTo").mockImplementation(() => undefined);
    const { finish } = renderPages();
    await userEvent.click(screen.getByRole("link", { name: "About" }));
    await finish("/about", "About");
    expect(scrollTo).toHaveBeenCalledExactlyOnceWith(0, 0);
    await userEvent.click(screen.getByRole("link", { name: "Team" }));
    await finish("/about", "About");
    expect(window.location.search).toBe("?part=team");
    expect(scrollTo).toHaveBeenCalledOnce();
  });
});
