import { useKeepSessionHint } from "@/lib/visitor-auth";

/** Keeps lib/visitor-auth.ts's note of whether this device holds a session. */
export function SessionHint() {
  useKeepSessionHint();
  return null;
}
