import "@testing-library/jest-dom/vitest";
import { configure } from "@testing-library/react";

// The default 1 s for findBy*/waitFor is a render on an idle machine; CI shares 2 cores.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no scrolling: a navigation's scroll to the top (PageReadyRouter) does nothing here
window.scrollTo = () => undefined;
