import { BOOKING_FIELDS } from "../rules/bookingFields";
import { fail } from "./errors";

const { address: ADDRESS, note: NOTE } = BOOKING_FIELDS;

/** A job's typed address and optional note, trimmed and within their lengths, or a refusal. */
export function checkedJobText(args: { address: string; note?: string }): {
  address: string;
  note: string | undefined;
} {
  const address = args.address.trim();
  const note = args.note?.trim() || undefined;
  if (address.length < ADDRESS.min || address.length > ADDRESS.max) {
    fail(
      "INVALID_ADDRESS",
      `Please give an address of ${ADDRESS.min} to ${ADDRESS.max} characters.`,
    );
  }
  if (note !== undefined && note.length > NOTE.max)
    fail("NOTE_TOO_LONG", `The note may be at most ${NOTE.max} characters.`);
  return { address, note };
}
