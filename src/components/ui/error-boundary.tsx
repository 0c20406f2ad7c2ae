import { Component, type ReactNode } from "react";

type Props = {
  fallback: (error: unknown, retry: () => void) => ReactNode;
  /** Side effect on failure, e.g. a toast (spec §8) — not done during render. */
  onError?: (error: unknown) => void;
  children: ReactNode;
};
type State = { error: unknown; failed: boolean };

/** Catches a failed query (useQuery throws) so one panel shows its error state instead of the whole page. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  componentDidCatch(error: unknown) {
    this.props.onError?.(error);
  }

  retry = () => this.setState({ error: null, failed: false });

  render() {
    return this.state.failed
      ? this.props.fallback(this.state.error, this.retry)
      : this.props.children;
  }
}
