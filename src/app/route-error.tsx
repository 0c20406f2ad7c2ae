import { isRouteErrorResponse, Link, useRouteError } from "react-router-dom";

/** Spec §8: any unmatched router error shows this with a status text or message. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="mx-auto max-w-xl p-8" role="alert">
      <h1 className="text-2xl font-semibold text-red-700">Unexpected Application Error!</h1>
      <p className="mt-3 text-slate-700">{detail}</p>
      <Link to="/" className="mt-6 inline-block text-brand-700 underline">
        Back to home
      </Link>
    </main>
  );
}
