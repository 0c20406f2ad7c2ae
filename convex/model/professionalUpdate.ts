import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { searchRankOf } from "../rules/searchRank";

/**
 * Patches a professional's profile and keeps its search rank current (rules/searchRank.ts): every
 * writer of verification, availability or rating goes through here.
 */
export async function updateProfessional(
  ctx: MutationCtx,
  pro: Doc<"professionals">,
  fields: Partial<Omit<Doc<"professionals">, "_id" | "_creationTime" | "searchRank">>,
): Promise<void> {
  await ctx.db.patch("professionals", pro._id, {
    ...fields,
    searchRank: searchRankOf({ ...pro, ...fields }),
  });
}
