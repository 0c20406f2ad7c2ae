import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FALLBACK, TechnicianCard } from "@/features/admin/technician-card";
import { setLocale } from "@/i18n/locale";

afterEach(() => {
  cleanup();
  setLocale("en");
});

describe("TechnicianCard", () => {
  it("shows every spec fallback for an empty record", () => {
    render(<TechnicianCard technician={{ locations: [] }} onOpen={() => undefined} />);
    expect(screen.getByText("No name available")).toBeInTheDocument();
    expect(screen.getByText("No specialty provided")).toBeInTheDocument();
    expect(screen.getByText("No location available")).toBeInTheDocument();
  });

  it("falls back per field inside a stored location", () => {
    render(
      <TechnicianCard
        technician={{
          name: "  ",
          specialtyName: "",
          locations: [{ city: "", state: null, address: " ", zipCode: undefined }],
        }}
        onOpen={() => undefined}
      />,
    );
    for (const text of [
      FALLBACK.name(),
      FALLBACK.specialty(),
      FALLBACK.city(),
      FALLBACK.state(),
      FALLBACK.address(),
      FALLBACK.zipCode(),
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.queryByText(FALLBACK.location())).not.toBeInTheDocument();
  });

  it("shows real values, the first location, the verification badge, and opens on click", async () => {
    const onOpen = vi.fn();
    render(
      <TechnicianCard
        technician={{
          name: "Ram Thapa",
          photoUrl: "https://example.test/ram.jpg",
          specialtyName: "Electrician",
          locations: [
            { city: "kathmandu", state: "Bagmati", address: "Baneshwor 10", zipCode: "44600" },
            { city: "pokhara", state: "Gandaki", address: "Lakeside", zipCode: "33700" },
          ],
          verification: { status: "verified" },
          online: true,
        }}
        onOpen={onOpen}
      />,
    );
    expect(screen.getByText("Ram Thapa")).toBeInTheDocument();
    expect(screen.getByText("Electrician")).toBeInTheDocument();
    expect(screen.getByText("Kathmandu")).toBeInTheDocument();
    expect(screen.getByText("Bagmati")).toBeInTheDocument();
    expect(screen.getByText("44600")).toBeInTheDocument();
    expect(screen.queryByText("Lakeside")).not.toBeInTheDocument();
    expect(screen.getByText("Verified")).toBeInTheDocument();
    expect(screen.getByText("Online")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Ram Thapa's profile photo" })).toBeInTheDocument();
    expect(Object.values(FALLBACK).some((text) => screen.queryByText(text()))).toBe(false);
    await userEvent.setup().click(screen.getByRole("button", { name: /Ram Thapa/ }));
    expect(onOpen).toHaveBeenCalledOnce();
  });

  it("marks a professional who re-submitted documents since the last decision", () => {
    const { rerender } = render(
      <TechnicianCard
        technician={{ verification: { status: "unverified", resubmittedAt: 1 } }}
        onOpen={() => undefined}
      />,
    );
    expect(screen.getByText("Documents re-submitted")).toBeInTheDocument();
    rerender(
      <TechnicianCard
        technician={{ verification: { status: "unverified" } }}
        onOpen={() => undefined}
      />,
    );
    expect(screen.queryByText("Documents re-submitted")).not.toBeInTheDocument();
  });

  it("speaks Nepali: specialty and city names, Devanagari zip code, badges and fallbacks", () => {
    setLocale("ne-NP");
    render(
      <TechnicianCard
        technician={{
          name: "Ram Thapa",
          specialty: "electrician",
          specialtyName: "Electrician",
          locations: [{ city: "kathmandu", state: "बागमती", address: "", zipCode: "44600" }],
          verification: { status: "unverified", resubmittedAt: 1 },
          online: true,
        }}
        onOpen={() => undefined}
      />,
    );
    expect(screen.getByText("बिजुली मिस्त्री")).toBeInTheDocument();
    expect(screen.getByText("काठमाडौं")).toBeInTheDocument();
    expect(screen.getByText("४४६००")).toBeInTheDocument();
    expect(screen.getByText("अप्रमाणित")).toBeInTheDocument();
    expect(screen.getByText("कागजात फेरि पठाइएको")).toBeInTheDocument();
    expect(screen.getByText("ठेगाना उपलब्ध छैन")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Ram Thapa, कागजात हेर्नुहोस्" })).toBeInTheDocument();
  });
});
