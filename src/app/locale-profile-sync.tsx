import { useCallback, useEffect, useRef } from "react";
import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { setLocale, useLocale, type Locale } from "@/i18n/locale";

/**
 * For signed-in users the language lives in their profile too: at sign-in the profile's choice is
 * adopted by this device (or, for a profile without one, the device's choice is saved).
 */
export function LocaleProfileSync() {
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const save = useMutation(api.users.setLanguage);
  const synced = useRef<string | null>(null);
  const locale = useLocale();

  useEffect(() => {
    if (!viewer || synced.current === viewer._id) return;
    synced.current = viewer._id;
    if (viewer.language) setLocale(viewer.language);
    else void save({ language: locale }).catch(() => {});
  }, [viewer, save, locale]);

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
