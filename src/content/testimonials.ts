/** Spec §2: three fixed five-star testimonials labelled Client 1–3. */
export const TESTIMONIALS = [
  {
    name: "Client 1",
    message:
      "The electrician arrived on time and fixed our wiring the same day. Very professional!",
  },
  {
    name: "Client 2",
    message: "Booking a plumber was easy and the price was exactly what the app showed.",
  },
  {
    name: "Client 3",
    message: "Great painters — our house looks new again. I will use GharSewa again.",
  },
] as const;
