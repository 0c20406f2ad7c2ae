/**
 * A professional replacing verification documents (after a rejection, or while waiting for review):
 * new files are checked and attached the way sign-up attaches them, the replaced files are deleted,
 * and the profile goes back to the admins' review queue.
 */
import { ConvexError, v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { ActionCtx, MutationCtx } from "../_generated/server";
import { attachOwnFile, checkStoredImage, releaseFile } from "./files";
import { notify } from "./notifications";
import { refreshMarker } from "./mapMarkers";
import { updateProfessional } from "./professionalUpdate";
import { DOCUMENT_KINDS, type DocumentKind } from "../rules/documents";
import { DOCUMENT_LABELS } from "./users";
import { fail } from "./errors";

const [first, second, ...others] = DOCUMENT_KINDS.map((kind) => v.literal(kind.key));
/** A document kind as an argument: one of the rules' DOCUMENT_KINDS. */
export const documentKind = v.union(first, second, ...others);
const KINDS = DOCUMENT_KINDS.map((kind) => kind.key);

export const replacedDocument = v.object({ kind: documentKind, storageId: v.id("_storage") });
type ReplacedDocument = Infer<typeof replacedDocument>;

/**
 * Replaces the documents given (unchanged ids are ignored) and sets the profile back to unverified,
 * the admin's note cleared. Allowed while rejected or unverified; once verified, documents are the
 * admins' business. A mutation cannot read the new files' bytes: pass the result to
 * `firstRefusedDocument` in an action.
 */
export async function replaceDocuments(
  ctx: MutationCtx,
  pro: Doc<"professionals">,
  docs: Partial<Record<DocumentKind, Id<"_storage">>>,
): Promise<ReplacedDocument[]> {
  if (pro.verification.status === "verified") {
    fail(
      "ALREADY_VERIFIED",
      "Your account is already verified. To change your documents, please contact GharSewa.",
    );
  }
  const replaced = KINDS.flatMap((kind) => {
    const storageId = docs[kind];
    return storageId === undefined || storageId === pro.documents[kind]
      ? []
      : [{ kind, storageId }];
  });
  if (replaced.length === 0) fail("INVALID_INPUT", "Choose at least one new document image.");
  const documents = {
    ...pro.documents,
    ...Object.fromEntries(replaced.map((r) => [r.kind, r.storageId])),
  };
  if (new Set(Object.values(documents)).size < KINDS.length)
    fail("INVALID_INPUT", "Upload a separate image for each document.");
  for (const { kind, storageId } of replaced) {
    await attachOwnFile(ctx, storageId, DOCUMENT_LABELS[kind], { userId: pro.userId }, pro.userId);
  }
  await updateProfessional(ctx, pro, {
    documents,
    verification: { status: "unverified", resubmittedAt: Date.now() },
  });
  await refreshMarker(ctx, pro._id);
  for (const { kind } of replaced) await releaseFile(ctx, pro.documents[kind]);
  return replaced;
}

/** Reads each new file's bytes as sign-up does; the first one refused is deleted and returned with the reason. */
export async function firstRefusedDocument(
  ctx: ActionCtx,
  replaced: ReplacedDocument[],
): Promise<(ReplacedDocument & { reason: string }) | null> {
  for (const doc of replaced) {
    try {
      await checkStoredImage(ctx, doc.storageId, DOCUMENT_LABELS[doc.kind]);
    } catch (error) {
      if (!(error instanceof ConvexError)) throw error;
      return { ...doc, reason: (error.data as { message: string }).message };
    }
  }
  return null;
}

/**
 * A new document turned out not to be a usable image: its record is released and the profile is
 * rejected with the reason, so the professional uploads it again. A no-op once the file was replaced.
 */
export async function refuseDocument(
  ctx: MutationCtx,
  args: {
    professionalId: Id<"professionals">;
    kind: DocumentKind;
    storageId: Id<"_storage">;
    reason: string;
  },
): Promise<void> {
  const pro = await ctx.db.get("professionals", args.professionalId);
  if (pro === null || pro.documents[args.kind] !== args.storageId) return;
  await releaseFile(ctx, args.storageId);
  await updateProfessional(ctx, pro, {
    verification: { status: "rejected", at: Date.now(), note: args.reason },
  });
  await refreshMarker(ctx, pro._id);
  await notify(ctx, {
    userId: pro.userId,
    kind: "verification.rejected",
    title: "Your verification was rejected",
    body: `A document you uploaded could not be used: ${args.reason}`,
    params: { note: args.reason, cause: "document" },
  });
}
