/**
 * Whether this tab itself is signing out or deleting its account: its session then ends on purpose,
 * and the notice that another device (or a password change) signed it out must not show.
 */
let leaving = 0;

export async function leaveHere<T>(work: () => Promise<T>): Promise<T> {
  leaving++;
  try {
    return await work();
  } finally {
    leaving--;
  }
}

export const leavingHere = () => leaving > 0;
