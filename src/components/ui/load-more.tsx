import { Button } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";

/** The states of a paginated list (convex/react's usePaginatedQuery `status`). */
type PageStatus = "LoadingFirstPage" | "CanLoadMore" | "LoadingMore" | "Exhausted";

/** The foot of a paginated list: a button for the next page while there is one, a spinner while it loads. */
export function LoadMore({
  status,
  onMore,
  label,
  loadingLabel,
}: {
  status: PageStatus;
  onMore: () => void;
  label: string;
  loadingLabel: string;
}) {
  if (status === "LoadingMore") return <LoadingState label={loadingLabel} />;
  if (status !== "CanLoadMore") return null;
  return (
    <Button variant="secondary" size="sm" className="mt-3 w-full" onClick={onMore}>
      {label}
    </Button>
  );
}
