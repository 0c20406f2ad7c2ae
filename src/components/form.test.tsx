import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { useAppForm } from "@/components/form";
import { setLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";

const schema = z.object({
  email: z.string().check(z.minLength(1, "Email is required.")),
  password: z.string().check(z.minLength(8, "At least 8 characters.")),
  minutes: z.number({ error: "Enter a number." }).check(z.minimum(5, "At least 5.")),
  phone: z.string(),
  photo: z.custom<File | null>((v) => v === null || v instanceof File),
});
type Values = z.infer<typeof schema>;

function Harness({
  onSubmit,
  locked = false,
}: {
  onSubmit: (value: Values) => Promise<void> | void;
  locked?: boolean;
}) {
  const form = useAppForm({
    defaultValues: { email: "", password: "", minutes: 30, phone: "", photo: null } as Values,
    validators: { onChange: schema, onSubmit: schema },
    onSubmit: ({ value }) => onSubmit(value),
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void form.handleSubmit();
      }}
    >
      <form.AppField name="email">
        {(f) => <f.TextField label="Email" hint="Your login." />}
      </form.AppField>
      <form.AppField name="password">{(f) => <f.PasswordField label="Password" />}</form.AppField>
      <form.AppField name="minutes">{(f) => <f.NumberField label="Minutes" />}</form.AppField>
      <form.AppField name="phone">{(f) => <f.TextField label="Phone" type="tel" />}</form.AppField>
      <form.AppField name="photo">{(f) => <f.ImageField label="Photo" />}</form.AppField>
      <form.AppForm>
        <form.SubmitButton label="Save" pendingLabel="Saving…" disabled={locked} />
      </form.AppForm>
    </form>
  );
}

afterEach(() => {
  cleanup();
  setLocale("en");
});

/** A form whose message is worded in the reader's language when the field is validated. */
function WordedHarness() {
  const form = useAppForm({
    defaultValues: { password: "" },
    validators: {
      onChange: z.object({
        password: z.string().check(z.minLength(1, { error: () => m.rule_enter_password() })),
      }),
    },
  });
  return (
    <form.AppField name="password">{(f) => <f.PasswordField label="Password" />}</form.AppField>
  );
}

describe("useAppForm field components", () => {
  it("bind value, name and change to the field, and show its error only once touched", async () => {
    const user = userEvent.setup();
    render(<Harness onSubmit={vi.fn()} />);
    const email = screen.getByLabelText("Email");
    expect(email).toHaveAttribute("name", "email");
    expect(email).toHaveAccessibleDescription("Your login.");
    await user.type(email, "a");
    await user.clear(email);
    expect(await screen.findByText("Email is required.")).toBeInTheDocument();
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Email is required.");
    // The form-wide schema fails the password too, but nobody has touched it yet.
    expect(screen.queryByText("At least 8 characters.")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Password", { selector: "input" })).not.toHaveAttribute(
      "aria-invalid",
    );
  });

  it("shows every error after a submit and does not submit", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Email is required.")).toBeInTheDocument();
    expect(screen.getByText("At least 8 characters.")).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("toggles the password's visibility by itself", async () => {
    const user = userEvent.setup();
    render(<Harness onSubmit={vi.fn()} />);
    const password = screen.getByLabelText("Password", { selector: "input" });
    expect(password).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show" }));
    expect(password).toHaveAttribute("type", "text");
    expect(screen.getByRole("button", { name: "Hide" })).toHaveAttribute("aria-pressed", "true");
    await user.click(screen.getByRole("button", { name: "Hide" }));
    expect(password).toHaveAttribute("type", "password");
  });

  it("holds numbers as numbers, and an emptied number input as NaN shown empty", async () => {
    const user = userEvent.setup();
    render(<Harness onSubmit={vi.fn()} />);
    const minutes = screen.getByLabelText("Minutes");
    expect(minutes).toHaveAttribute("inputmode", "numeric");
    expect(minutes).toHaveValue("30");
    await user.clear(minutes);
    expect(minutes).toHaveValue("");
    expect(await screen.findByText("Enter a number.")).toBeInTheDocument();
    await user.type(minutes, "3");
    expect(await screen.findByText("At least 5.")).toBeInTheDocument();
  });

  it("takes Devanagari digits and holds Latin ones", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    const minutes = screen.getByLabelText("Minutes");
    await user.clear(minutes);
    await user.type(minutes, "४५");
    expect(minutes).toHaveValue("45");
    const phone = screen.getByLabelText("Phone");
    await user.type(phone, "९८४१२३४५६७");
    expect(phone).toHaveValue("9841234567");
    await user.type(screen.getByLabelText("Email"), "sita@example.np");
    await user.type(screen.getByLabelText("Password", { selector: "input" }), "long-enough");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ minutes: 45, phone: "9841234567" }),
    );
  });

  it("submits the typed values and the chosen image, reading the pending label while busy", async () => {
    const user = userEvent.setup();
    let finish!: () => void;
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<Harness onSubmit={onSubmit} />);
    const file = new File(["x"], "me.png", { type: "image/png" });
    await user.type(screen.getByLabelText("Email"), "sita@example.np");
    await user.type(screen.getByLabelText("Password", { selector: "input" }), "long-enough");
    const photo = screen.getByLabelText("Photo");
    expect(photo).toHaveAttribute("type", "file");
    expect(photo).toHaveAttribute("accept");
    await user.upload(photo, file);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("button", { name: "Saving…" })).toBeDisabled();
    expect(onSubmit).toHaveBeenCalledWith({
      email: "sita@example.np",
      password: "long-enough",
      minutes: 30,
      phone: "",
      photo: file,
    });
    finish();
    expect(await screen.findByRole("button", { name: "Save" })).toBeEnabled();
  });

  it("keeps the submit button disabled when the form says so", () => {
    render(<Harness onSubmit={vi.fn()} locked />);
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
  });

  it("re-words a shown error in the language the reader switches to", async () => {
    const user = userEvent.setup();
    render(<WordedHarness />);
    const password = screen.getByLabelText("Password", { selector: "input" });
    await user.type(password, "a");
    await user.clear(password);
    expect(password).toHaveAccessibleDescription("Please enter your password.");
    act(() => setLocale("ne-NP"));
    expect(password).toHaveAccessibleDescription(m.rule_enter_password({}, { locale: "ne-NP" }));
  });
});
