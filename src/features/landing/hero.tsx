import { useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router-dom";
import { Button, buttonClasses } from "@/components/ui/button";
import { SelectField } from "@/components/ui/inputs";
import { paths, SITE_LINKS } from "@/lib/paths";
import { Form } from "@/components/form-element";
import { CITIES, LANDING_SERVICES } from "@convex/constants";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localLandingService } from "@/i18n/services";

/** The landing hero; its action area depends on the role (spec §2). */
export function Hero({ children }: { children: ReactNode }) {
  return (
    <section className="bg-gradient-to-br from-brand-700 via-brand-600 to-brand-500 text-white">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:py-20">
        <h1 className="text-4xl font-bold tracking-tight sm:text-6xl">{m.hero_title()}</h1>
        <p className="mt-3 max-w-xl text-lg text-brand-50 sm:text-xl">{m.hero_tagline()}</p>
        <div className="mt-8">{children}</div>
        <nav
          aria-label={m.hero_nav()}
          className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium"
        >
          {SITE_LINKS.map(({ to, label }) => (
            <Link key={to} to={to} className="underline-offset-4 hover:underline">
              {label()}
            </Link>
          ))}
        </nav>
      </div>
    </section>
  );
}

export function GetStarted() {
  return (
    <Link
      to={paths.signup()}
      className={buttonClasses("secondary", "md", "border-0 px-6 text-brand-800")}
    >
      {m.hero_get_started()}
    </Link>
  );
}

/** Customer hero search: both fields required, else the spec's alert and no navigation. */
export function HeroSearch() {
  const navigate = useNavigate();
  const [service, setService] = useState("");
  const [location, setLocation] = useState("");

  function submit() {
    if (!service || !location) {
      window.alert(m.hero_search_missing());
      return;
    }
    navigate(paths.serviceSearch(service, location));
  }

  return (
    <Form
      onSubmit={submit}
      aria-label={m.hero_search_form()}
      className="grid max-w-3xl gap-3 rounded-2xl bg-white p-4 text-slate-900 shadow-lg sm:grid-cols-[1fr_1fr_auto] sm:items-end"
    >
      <SelectField
        label={m.hero_service()}
        value={service}
        onChange={(e) => setService(e.target.value)}
      >
        <option value="">{m.hero_select_service()}</option>
        {LANDING_SERVICES.map((s) => (
          <option key={s} value={s}>
            {localLandingService(s)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={m.hero_location()}
        value={location}
        onChange={(e) => setLocation(e.target.value)}
      >
        <option value="">{m.hero_select_location()}</option>
        {CITIES.map(({ name: c }) => (
          <option key={c} value={c}>
            {localCityName(c)}
          </option>
        ))}
      </SelectField>
      <Button type="submit" className="h-[42px]">
        {m.hero_search()}
      </Button>
    </Form>
  );
}
