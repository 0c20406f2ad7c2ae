import { startTransition, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { flushSync } from "react-dom";
import {
  parsePath,
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  type Navigator,
  type To,
} from "react-router-dom";

/**
 * BrowserRouter, except that a navigation (a link, navigate(), <Navigate>) first loads the next page's
 * modules (`load`), then changes the URL and renders that page in the same task.
 *
 * BrowserRouter changes the URL at once and renders the next page in a transition, which keeps the
 * current page on screen, still usable, under the new URL until the next page's lazy module has
 * loaded. On a slow phone that was a second after sign-up with the sign-up form, its email filled
 * in, under /login: what the user typed went into it, then the login form replaced it (issue 15).
 *
 * Back and forward render in a transition as in BrowserRouter: the browser has changed the URL already,
 * and restores the scroll position. A link to another page starts at its top.
 */
export function PageReadyRouter({
  load,
  children,
}: {
  load: (pathname: string) => Promise<unknown>;
  children: ReactNode;
}) {
  const [history] = useState(() => createBrowserHistory({ v5Compat: true }));
  const [state, setState] = useState({ action: history.action, location: history.location });
  // the navigation still to happen: a later one (back and forward too) cancels an earlier one
  const latest = useRef(0);
  const shown = useRef(history.location.pathname);
  useLayoutEffect(
    () =>
      history.listen(({ action, location }) => {
        if (action === "POP") {
          latest.current++;
          startTransition(() => setState({ action, location }));
        }
        // push and replace come from `navigator` below, in a promise callback: never inside a render
        else {
          // a link to another page opens at its top, as a page load does; the new page may then
          // scroll to what it was linked to (a booking), so this comes first, in the same task
          if (action === "PUSH" && location.pathname !== shown.current && location.hash === "")
            window.scrollTo(0, 0);
          flushSync(() => setState({ action, location }));
        }
        shown.current = location.pathname;
      }),
    [history],
  );

  const navigator = useMemo<Navigator>(() => {
    const whenLoaded =
      (change: Navigator["push"]): Navigator["push"] =>
      (to: To, ...rest) => {
        const navigation = ++latest.current;
        const { pathname = history.location.pathname } =
          typeof to === "string" ? parsePath(to) : to;
        // A module that failed to load fails again when rendered, and RouteErrorBoundary shows it.
        void load(pathname)
          .catch(() => undefined)
          .then(() => {
            if (navigation === latest.current) change(to, ...rest);
          });
      };
    return {
      createHref: history.createHref,
      createURL: history.createURL,
      encodeLocation: history.encodeLocation,
      go: history.go,
      push: whenLoaded(history.push),
      replace: whenLoaded(history.replace),
    };
  }, [history, load]);

  return (
    <Router location={state.location} navigationType={state.action} navigator={navigator}>
      {children}
    </Router>
  );
}
