import { z } from "zod";
import { imageFileSchema } from "@/lib/upload";
import {
  addressSchema,
  emailSchema,
  nameSchema,
  passwordSchema,
  phoneSchema,
  zipSchema,
} from "@/lib/validation";

export type SignupRole = "" | "customer" | "professional";

export const DOCUMENT_FIELDS = [
  { name: "citizenshipFront", label: "Citizenship Front" },
  { name: "citizenshipBack", label: "Citizenship Back" },
  { name: "trainingCertificate", label: "Training Certificate" },
] as const;

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

/** The rules the server enforces at sign-up, shown inline before submit. */
export const signupSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    phone: phoneSchema,
    password: passwordSchema,
    address: addressSchema,
    zipCode: zipSchema,
    role: z.enum(["", "customer", "professional"]),
    photo: imageFileSchema,
    city: z.string(),
    state: z.string(),
    specialty: z.string(),
    citizenshipFront: imageFileSchema,
    citizenshipBack: imageFileSchema,
    trainingCertificate: imageFileSchema,
  })
  .superRefine(
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
      for (const { name, label } of DOCUMENT_FIELDS) {
        if (!v[name])
          ctx.addIssue({ code: "custom", path: [name], message: `${label} image is required.` });
      }
      // Run even when other fields are invalid, so every missing item shows at once.
    },
    { when: () => true },
  );
