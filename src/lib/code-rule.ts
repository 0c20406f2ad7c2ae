import * as z from "zod/mini";
import { ACCOUNT_CODE_SHAPE } from "@convex/rules/accountCodes";
import { m } from "@/i18n/paraglide/messages";

/** The code a message brought (sign-in, password reset, contact check): exactly its digits. */
export const codeRule = z
  .string()
  .check(z.trim(), z.regex(ACCOUNT_CODE_SHAPE, { error: () => m.reset_code_rule() }));
