import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/inputs";
import { paths } from "@/lib/paths";
import { Form } from "@/components/form-element";
import { CITIES, LANDING_SERVICES } from "@convex/constants";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localLandingService } from "@/i18n/categories";

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
        label={m.label_location()}
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
