import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

/** The site links the hero and the footer both show (spec §2: About us, Our Services, Contact us). */
export const SITE_LINKS = [
  { to: paths.about(), label: m.nav_about },
  { to: paths.services(), label: m.nav_services },
  { to: paths.contact(), label: m.nav_contact },
] as const;
