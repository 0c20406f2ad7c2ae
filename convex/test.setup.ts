/// <reference types="vite/client" />
import { convexTest } from "convex-test";
import schema from "./schema";
import type { Id } from "./_generated/dataModel";
import type { CitySlug, SpecialtySlug } from "./validators";

// The glob in convex-test's README returns nothing under Vite 8; this form does.
export const modules = import.meta.glob(["./**/*.*s", "!./**/*.test.*s"]);

export function newTest() {
  return convexTest(schema, modules);
}
export type TestConvex = ReturnType<typeof newTest>;

/** Identity shaped like @convex-dev/auth's: getAuthUserId reads the part before "|". */
export function signedIn(t: TestConvex, userId: Id<"users">) {
  return t.withIdentity({ subject: `${userId}|test-session` });
}

export async function insertCustomer(t: TestConvex, name = "Sita Sharma") {
  const userId = await t.run((ctx) =>
    ctx.db.insert("users", {
      name,
      role: "customer",
      email: `${name.toLowerCase().replace(/\s+/g, ".")}.${Math.random().toString(36).slice(2, 8)}@example.np`,
      phone: "9800000001",
      address: "Ward 4, Baneshwor",
      zipCode: "44600",
    }),
  );
  return { userId, as: signedIn(t, userId) };
}

export async function insertAdmin(t: TestConvex, username = "admin") {
  const userId = await t.run((ctx) => ctx.db.insert("users", { name: "Admin", role: "admin", username }));
  return { userId, as: signedIn(t, userId) };
}

export async function insertProfessional(
  t: TestConvex,
  opts: {
    name?: string;
    specialty?: SpecialtySlug;
    city?: CitySlug;
    verified?: boolean;
    available?: boolean;
  } = {},
) {
  const { name = "Ram Thapa", specialty = "electrician", city = "kathmandu", verified = true, available = true } = opts;
  const ids = await t.run(async (ctx) => {
    const image = () => ctx.storage.store(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" }));
    const userId = await ctx.db.insert("users", {
      name,
      role: "professional",
      email: `${name.toLowerCase().replace(/\s+/g, ".")}.${Math.random().toString(36).slice(2, 8)}@example.np`,
      phone: "9800000002",
      address: "Ward 10, Nepalgunj",
      zipCode: "21900",
    });
    const professionalId = await ctx.db.insert("professionals", {
      userId,
      specialty,
      city,
      state: "Bagmati",
      locations: [{ city, state: "Bagmati", address: "Ward 10", zipCode: "44600" }],
      documents: { citizenshipFront: await image(), citizenshipBack: await image(), trainingCertificate: await image() },
      verification: verified ? { status: "verified", at: 0 } : { status: "unverified" },
      rating: { sum: 0, count: 0 },
      available,
    });
    return { userId, professionalId };
  });
  return { ...ids, as: signedIn(t, ids.userId) };
}

/** Resolves to the `code` of the ConvexError a call rejects with (fails the test if it succeeds). */
export async function errorCode(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: unknown }).data;
    const parsed = typeof data === "string" ? (JSON.parse(data) as unknown) : data;
    if (typeof parsed === "object" && parsed !== null && "code" in parsed) return String(parsed.code);
    throw error;
  }
  throw new Error("Expected the call to be refused, but it succeeded.");
}

/** Resolves to the readable `message` of the ConvexError a call rejects with. */
export async function errorMessage(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: unknown }).data;
    const parsed = typeof data === "string" ? (JSON.parse(data) as unknown) : data;
    if (typeof parsed === "object" && parsed !== null && "message" in parsed) return String(parsed.message);
    throw error;
  }
  throw new Error("Expected the call to be refused, but it succeeded.");
}
