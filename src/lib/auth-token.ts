/** The user and session an auth token of @convex-dev/auth names (its subject is "<userId>|<sessionId>"). */
function subjectOfToken(token: string | null): { userId: string; sessionId: string } | null {
  const payload = token?.split(".")[1];
  if (payload === undefined) return null;
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const subject = (JSON.parse(json) as { sub?: unknown }).sub;
    if (typeof subject !== "string") return null;
    const [userId, sessionId] = subject.split("|");
    return userId && sessionId ? { userId, sessionId } : null;
  } catch {
    return null;
  }
}

export const sessionOfToken = (token: string | null) => subjectOfToken(token)?.sessionId ?? null;

export const userOfToken = (token: string | null) => subjectOfToken(token)?.userId ?? null;
