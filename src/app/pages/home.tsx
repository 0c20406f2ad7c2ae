import { lazyWhenOnline } from "@/lib/import-when-online";
import { HomePage } from "@/features/landing/home-page";

// Only customers see the services grid on /; its popovers (Radix) stay out of the visitors' landing JS.
const ServicesGrid = lazyWhenOnline(() =>
  import("@/features/catalog/services-grid").then((m) => ({ default: m.ServicesGrid })),
);

/** `/`: the landing, with the catalogue's services grid composed in for customers. */
export default function Home() {
  return <HomePage servicesGrid={<ServicesGrid headingLevel={2} />} />;
}
