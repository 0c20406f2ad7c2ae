/** Product constants from spec §9. */
export const CONVEX_URL: string = import.meta.env.VITE_CONVEX_URL ?? "http://127.0.0.1:3210";

export const TOASTS = {
  visible: 3,
  durationMs: 4000,
  widthPx: 356,
  gapPx: 14,
  hotkey: ["altKey", "KeyT"],
} as const;

export const POPOVER_SIDE_OFFSET = 4;
export const BANNER_SPEED = 100;
export const ADMIN_REDIRECT_DELAY_MS = 500;

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
