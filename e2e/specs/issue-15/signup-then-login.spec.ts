import type { WebSocket } from "@playwright/test";
import { unique } from "../../env";
import { expect, test } from "../../fixtures";

/**
 * Defect 3 (issue 15): on a slow phone (Chromium's CPU throttled 4× through the DevTools protocol),
 * what the user types on /login right after a successful sign-up stays typed once the auth state
 * has settled after the sign-up's sign-out.
 *
 * "Settled" is observed on the Convex WebSocket: the sign-out ends with the client sending
 * `Authenticate` with `tokenType: "None"` and the server confirming it with a `Transition`; the
 * form is checked after that confirmation and after two more rendered frames. The cause was the
 * route's lazy page switching component type on the first re-render after its module loaded.
 */
// Still failing in CI (the email is empty while the form mounted once): defect 3 is open on issue 15.
test.fixme("sign-up → /login at 4× CPU throttle: typed email and password survive the auth settling", async ({
  actor,
}) => {
  const id = unique();
  const person = await actor({ viewport: { width: 360, height: 800 } });
  const p = person.page;
  const cdp = await p.context().newCDPSession(p);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });

  // every sync frame in order, so "the Transition after the last unauthenticate" can be found
  const frames: { dir: "sent" | "received"; type: string; tokenType?: string }[] = [];
  const watch = (ws: WebSocket) => {
    if (!ws.url().includes("/sync")) return;
    const record = (dir: "sent" | "received") => (data: { payload: string | Buffer }) => {
      try {
        const msg = JSON.parse(String(data.payload));
        for (const one of Array.isArray(msg) ? msg : [msg])
          frames.push({ dir, type: one.type, tokenType: one.tokenType });
      } catch {
        // binary frames are not the protocol's JSON messages
      }
    };
    ws.on("framesent", record("sent"));
    ws.on("framereceived", record("received"));
  };
  p.on("websocket", watch);
  // how many times a login form's email field is put into the page: a remount wipes what was typed
  await p.addInitScript(() => {
    const w = window as unknown as { loginFormMounts: number };
    w.loginFormMounts = 0;
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of Array.from(r.addedNodes))
          if (
            location.pathname === "/login" &&
            n instanceof Element &&
            n.querySelector('input[autocomplete="current-password"]')
          )
            w.loginFormMounts++;
    }).observe(document, { childList: true, subtree: true });
  });

  const user = {
    name: `Slow Phone ${id}`,
    email: `slow-${id}@example.np`,
    phone: "9812345678",
    password: "slow-phone-password-1",
    address: "Ward 4, Nepalgunj",
    zipCode: "21900",
  };
  await p.goto("/user-signup");
  await person.auth.fillAccount(user);
  await p.getByRole("button", { name: "Create Account" }).click();
  await expect(p).toHaveURL("/login", { timeout: 30_000 });

  // type at once, as someone who has just been told to log in does
  const email = p.getByLabel("Email");
  const password = p.getByLabel("Password", { exact: true });
  await email.pressSequentially(user.email);
  await password.pressSequentially(user.password);

  // settled: the client has dropped its token and the server has answered that
  await expect
    .poll(() => {
      const last = frames.findLastIndex((f) => f.type === "Authenticate");
      return (
        last >= 0 &&
        frames[last].tokenType === "None" &&
        frames.slice(last).some((f) => f.dir === "received" && f.type === "Transition")
      );
    })
    .toBe(true);
  await p.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))),
  );

  // the one login form the user typed into is still there, holding what they typed
  expect(
    await p.evaluate(() => (window as unknown as { loginFormMounts: number }).loginFormMounts),
  ).toBe(1);
  await expect(email).toHaveValue(user.email);
  await expect(password).toHaveValue(user.password);
  await p.getByRole("radio", { name: "Customer" }).check();
  await p.getByRole("button", { name: "Login" }).click();
  await expect(p).toHaveURL("/");
});
