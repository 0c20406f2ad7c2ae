import { Component, type ReactNode } from "react";
import { Link } from "@/components/link";
import { m } from "@/i18n/paraglide/messages";

/** Spec §8: an error no page handled shows this with its message. */
export function RouteError({ error }: { error: unknown }) {
  return (
    <main className="mx-auto max-w-xl p-8" role="alert">
      <h1 className="text-2xl font-semibold text-red-700">{m.route_error_title()}</h1>
      <p className="mt-3 text-slate-700">
        {error instanceof Error ? error.message : String(error)}
      </p>
      <Link to="/" className="mt-6 inline-block text-brand-700 underline">
        {m.route_error_home()}
      </Link>
    </main>
  );
}

type Props = { location: string; children: ReactNode };
type State = { error: unknown; failed: boolean; location: string };

/**
 * Shows RouteError in place of the whole app when rendering a route (or loading its module) throws;
 * the next navigation clears it.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: null, failed: false, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location
      ? null
      : { error: null, failed: false, location: props.location };
  }

  render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}
