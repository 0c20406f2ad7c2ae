/**
 * convex/browser's `ConvexHttpClient` as @convex-dev/auth's ConvexAuthProvider uses it: created for
 * each call that has no session yet (signing in, refreshing a session) and asked for one `action`.
 * vite.config.ts resolves the provider's import of convex/browser here, so the client (1.8 KB gzip)
 * is fetched on the first such call instead of with every first page. A failed fetch fails the call,
 * as a lost network fails the client's own request.
 */
import type { ConvexHttpClient as RealClient } from "convex/browser";
import type { FunctionReference, FunctionReturnType, OptionalRestArgs } from "convex/server";

type Options = ConstructorParameters<typeof RealClient>[1];

let real: Promise<typeof RealClient> | undefined;
const load = () => (real ??= import("@/lib/http-client").then((module) => module.ConvexHttpClient));

export class ConvexHttpClient {
  constructor(
    private readonly address: string,
    private readonly options?: Options,
  ) {}

  async action<Action extends FunctionReference<"action">>(
    action: Action,
    ...args: OptionalRestArgs<Action>
  ): Promise<FunctionReturnType<Action>> {
    const Client = await load();
    return new Client(this.address, this.options).action(action, ...args);
  }
}
