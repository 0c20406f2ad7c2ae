/** The identity documents a professional uploads at sign-up, in the spec's order and words. */
export const DOCUMENT_KINDS = [
  { key: "citizenshipFront", label: "Citizenship Front" },
  { key: "citizenshipBack", label: "Citizenship Back" },
  { key: "trainingCertificate", label: "Training Certificate" },
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number]["key"];

export const DOCUMENT_LABEL = Object.fromEntries(
  DOCUMENT_KINDS.map((d) => [d.key, d.label]),
) as Record<DocumentKind, string>;
