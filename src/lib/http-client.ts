// The module src/lib/lazy-http-client.ts fetches: convex/browser's ConvexHttpClient alone, in a
// chunk of its own (an import of convex/browser itself would split the client the page needs).
export { ConvexHttpClient } from "convex/browser";
