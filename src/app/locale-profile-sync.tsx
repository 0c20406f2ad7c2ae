import { useCallback, useEffect, useRef } from "react";
import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { hasChosenLocale, setLocale, type Locale } from "@/i18n/locale";

/**
 * For signed-in users a language chosen with a switch lives in their profile too: at sign-in a
 * device that has no choice of its own adopts it. Otherwise the device's language wins, and a
 * language only detected is never saved (a Nepali phone stays Nepali after an English laptop).
 */
export function LocaleProfileSync() {
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const synced = useRef<string | null>(null);

  useEffect(() => {
    if (!viewer || synced.current === viewer._id) return;
    synced.current = viewer._id;
    if (viewer.language && !hasChosenLocale()) setLocale(viewer.language);
  }, [viewer]);

  return null;
}

/** Switches the language on this device and, for a signed-in user, in their profile. */
export function useSwitchLocale(): (locale: Locale) => void {
  const { isAuthenticated } = useConvexAuth();
  const save = useMutation(api.users.setLanguage);
  return useCallback(
    (locale: Locale) => {
      setLocale(locale);
      if (isAuthenticated) void save({ language: locale }).catch(() => {});
    },
    [isAuthenticated, save],
  );
}
