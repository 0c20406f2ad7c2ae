import * as z from "zod/mini";
import { imageFileSchema } from "@/lib/upload";
import { DOCUMENT_KINDS } from "@convex/rules/documents";
import { emailRule, passwordRule, profileRules } from "@convex/rules/profile";

export type SignupRole = "" | "customer" | "professional";

export type SignupValues = {
  name: string;
  email: string;
  phone: string;
  password: string;
  address: string;
  zipCode: string;
  role: SignupRole;
  photo: File | null;
  city: string;
  state: string;
  specialty: string;
  citizenshipFront: File | null;
  citizenshipBack: File | null;
  trainingCertificate: File | null;
};

export const emptySignup = (role: SignupRole): SignupValues => ({
  name: "",
  email: "",
  phone: "",
  password: "",
  address: "",
  zipCode: "",
  role,
  photo: null,
  city: "",
  state: "",
  specialty: "",
  citizenshipFront: null,
  citizenshipBack: null,
  trainingCertificate: null,
});

/** The server's sign-up rules (convex/rules), shown inline before submit. */
export const signupSchema = z
  .object({
    ...profileRules,
    email: emailRule,
    password: passwordRule,
    role: z.enum(["", "customer", "professional"]),
    photo: imageFileSchema,
    city: z.string(),
    state: z.string(),
    specialty: z.string(),
    citizenshipFront: imageFileSchema,
    citizenshipBack: imageFileSchema,
    trainingCertificate: imageFileSchema,
  })
  .check(
    z.superRefine(
      (v, ctx) => {
        if (v.role !== "professional") return;
        if (!v.city) ctx.addIssue({ code: "custom", path: ["city"], message: "Choose your city." });
        if (v.state.trim().length < 2)
          ctx.addIssue({
            code: "custom",
            path: ["state"],
            message: "State must be at least 2 characters.",
          });
        if (!v.specialty)
          ctx.addIssue({ code: "custom", path: ["specialty"], message: "Choose your specialty." });
        for (const { key, label } of DOCUMENT_KINDS) {
          if (!v[key])
            ctx.addIssue({ code: "custom", path: [key], message: `${label} image is required.` });
        }
        // Run even when other fields are invalid, so every missing item shows at once.
      },
      { when: () => true },
    ),
  );
