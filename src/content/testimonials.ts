import { m } from "@/i18n/paraglide/messages";

/** Spec §2: three fixed five-star testimonials labelled Client 1–3 (words in the catalogue). */
export const TESTIMONIALS = [
  { number: 1, message: m.testimonial_1 },
  { number: 2, message: m.testimonial_2 },
  { number: 3, message: m.testimonial_3 },
] as const;
