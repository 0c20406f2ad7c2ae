import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FileField, SelectField, TextareaField, TextField } from "@/components/ui/inputs";
import { setLocale } from "@/i18n/locale";

afterEach(() => {
  cleanup();
  setLocale("en");
});

describe("TextField, SelectField and TextareaField", () => {
  it("label their control, describe it by the hint, and pass other props through", () => {
    render(
      <>
        <TextField label="Name" hint="As on your citizenship." placeholder="Sita" />
        <SelectField label="City" id="city" defaultValue="b">
          <option value="a">A</option>
          <option value="b">B</option>
        </SelectField>
        <TextareaField label="Note" rows={3} wrapperClassName="col-span-2" className="h-24" />
      </>,
    );
    const name = screen.getByLabelText("Name");
    expect(name).toHaveAttribute("placeholder", "Sita");
    expect(name).toHaveAccessibleDescription("As on your citizenship.");
    expect(name).not.toHaveAttribute("aria-invalid");
    expect(screen.getByLabelText("City")).toHaveAttribute("id", "city");
    expect(screen.getByLabelText("City")).toHaveValue("b");
    const note = screen.getByLabelText("Note");
    expect(note).toHaveAttribute("rows", "3");
    expect(note.className).toMatch(/border-slate-300 h-24$/);
    expect(note.parentElement).toHaveClass("col-span-2");
  });

  it("show an error instead of the hint and mark the control invalid", () => {
    render(
      <>
        <TextField label="Name" hint="Hint" error="Too short." />
        <SelectField label="City" error="Pick one.">
          <option value="">—</option>
        </SelectField>
        <TextareaField label="Note" error="Too long." />
      </>,
    );
    for (const [label, error] of [
      ["Name", "Too short."],
      ["City", "Pick one."],
      ["Note", "Too long."],
    ]) {
      const control = screen.getByLabelText(label);
      expect(control).toHaveAttribute("aria-invalid", "true");
      expect(control).toHaveAccessibleDescription(error);
      expect(control.className).toMatch(/border-red-500/);
    }
    expect(screen.queryByText("Hint")).not.toBeInTheDocument();
  });
});

describe("FileField", () => {
  it("words its button and empty state in the reader's language and names the chosen file", () => {
    setLocale("ne-NP");
    const { rerender } = render(<FileField label="नागरिकताको अगाडिको भाग" accept="image/*" />);
    const input = screen.getByLabelText("नागरिकताको अगाडिको भाग");
    expect(input).toHaveAttribute("type", "file");
    expect(input).toHaveAccessibleName("नागरिकताको अगाडिको भाग");
    expect(screen.getByText("फोटो छान्नुहोस्")).toBeInTheDocument();
    expect(screen.getByText("कुनै फाइल छानिएको छैन")).toBeInTheDocument();
    rerender(<FileField label="नागरिकताको अगाडिको भाग" fileName="front.jpg" />);
    expect(screen.getByText("front.jpg")).toBeInTheDocument();
    expect(screen.queryByText("कुनै फाइल छानिएको छैन")).not.toBeInTheDocument();
  });
});
