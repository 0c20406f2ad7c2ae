import { Component, type ReactNode } from "react";

type Props = { fallback: (error: unknown, retry: () => void) => ReactNode; children: ReactNode };
type State = { error: unknown; failed: boolean };

/** Catches a failed query (useQuery throws) so one panel shows its error state instead of the whole page. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  retry = () => this.setState({ error: null, failed: false });

  render() {
    return this.state.failed ? this.props.fallback(this.state.error, this.retry) : this.props.children;
  }
}
