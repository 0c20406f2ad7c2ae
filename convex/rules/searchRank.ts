/**
 * How professionals are rated and ordered in search, as plain data: the profile keeps its rank
 * (`searchRank`, indexed with specialty and city) and model/professionals.ts keeps it current.
 */

type RatingTotals = { rating: { sum: number; count: number } };

export function ratingOf(pro: RatingTotals): { average: number; count: number } {
  const { sum, count } = pro.rating;
  return { average: count === 0 ? 0 : Math.round((sum / count) * 10) / 10, count };
}

/** The search order's tiers: bookable (verified and available), the rest listed, rejected (never listed). */
export const RANK_TIER = 1e12;
const RANK_AVERAGE = 1e10;

/**
 * Where search ranks a professional, as one number, smallest first: bookable before the rest, then
 * the higher average rating, then more ratings; rejected profiles after everyone (search stops there).
 */
export function searchRankOf(
  pro: RatingTotals & { verification: { status: string }; available: boolean },
): number {
  if (pro.verification.status === "rejected") return 2 * RANK_TIER;
  const { average, count } = ratingOf(pro);
  const bookable = pro.verification.status === "verified" && pro.available;
  return (
    (bookable ? 0 : RANK_TIER) +
    (50 - Math.round(average * 10)) * RANK_AVERAGE +
    Math.max(0, RANK_AVERAGE - 1 - count)
  );
}
