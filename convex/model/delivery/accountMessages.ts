/**
 * The words of account messages (codes, "your password was changed"), in the recipient's language.
 * An SMS stays short: one segment of Devanagari is 70 characters.
 */
import type { Locale } from "../../constants";
import { ACCOUNT_CODE } from "../../rules/accountCodes";
import type { Contact } from "../../rules/accountCodes";
import type { QueuedMessage } from "./queue";

const MINUTES = ACCOUNT_CODE.lifetimeMs / 60_000;

const TEXT = {
  en: {
    resetSubject: "Your GharSewa password reset code",
    resetEmail: (code: string) =>
      `Your GharSewa code is ${code}. Enter it with your new password within ${MINUTES} minutes.\n\nIf you did not ask to reset your password, ignore this message: your password stays as it is.`,
    resetSms: (code: string) => `GharSewa code: ${code}. Valid ${MINUTES} min. Never share it.`,
    changedSubject: "Your GharSewa password was changed",
    changedEmail:
      "The password of your GharSewa account was just changed, and every other device was signed out.\n\nIf this was not you, reset your password now and contact GharSewa support.",
    changedSms: "Your GharSewa password was changed. Not you? Reset it now.",
    verifySubject: "Your GharSewa verification code",
    verifyEmail: (code: string) =>
      `Your GharSewa code is ${code}. Enter it within ${MINUTES} minutes to verify this email address.\n\nIf you did not ask for it, ignore this message.`,
    verifySms: (code: string) =>
      `GharSewa code: ${code}. Verifies this number. Valid ${MINUTES} min.`,
    signInSms: (code: string) =>
      `GharSewa sign-in code: ${code}. Valid ${MINUTES} min. Never share it.`,
  },
  ne: {
    resetSubject: "घर सेवा पासवर्ड रिसेट कोड",
    resetEmail: (code: string) =>
      `तपाईंको घर सेवा कोड ${code} हो। ${MINUTES} मिनेटभित्र नयाँ पासवर्डसँग यो कोड हाल्नुहोस्।\n\nतपाईंले पासवर्ड रिसेट माग्नुभएको होइन भने यो सन्देश बेवास्ता गर्नुहोस्: पासवर्ड उस्तै रहन्छ।`,
    resetSms: (code: string) => `घर सेवा कोड: ${code}। ${MINUTES} मिनेट मान्य। कसैलाई नदिनुहोस्।`,
    changedSubject: "तपाईंको घर सेवा पासवर्ड परिवर्तन भयो",
    changedEmail:
      "तपाईंको घर सेवा खाताको पासवर्ड भर्खरै परिवर्तन भयो र अरू सबै उपकरणबाट साइन आउट गरियो।\n\nयो तपाईं होइन भने अहिले नै पासवर्ड रिसेट गर्नुहोस् र घर सेवा सहयोगलाई सम्पर्क गर्नुहोस्।",
    changedSms: "तपाईंको घर सेवा पासवर्ड परिवर्तन भयो। तपाईं होइन? अहिले रिसेट गर्नुहोस्।",
    verifySubject: "घर सेवा प्रमाणीकरण कोड",
    verifyEmail: (code: string) =>
      `तपाईंको घर सेवा कोड ${code} हो। यो इमेल प्रमाणित गर्न ${MINUTES} मिनेटभित्र हाल्नुहोस्।\n\nतपाईंले मागेको होइन भने यो सन्देश बेवास्ता गर्नुहोस्।`,
    verifySms: (code: string) => `घर सेवा कोड: ${code}। यो नम्बर प्रमाणित गर्छ। ${MINUTES} मिनेट मान्य।`,
    signInSms: (code: string) => `घर सेवा लग इन कोड: ${code}। ${MINUTES} मिनेट मान्य। कसैलाई नदिनुहोस्।`,
  },
};

const words = (locale: Locale | undefined) => TEXT[locale === "ne-NP" ? "ne" : "en"];

export function resetCodeMessage(to: Contact, code: string, locale?: Locale): QueuedMessage {
  const t = words(locale);
  return to.kind === "email"
    ? { channel: "email", to: to.value, subject: t.resetSubject, text: t.resetEmail(code) }
    : { channel: "sms", to: to.value, text: t.resetSms(code) };
}

export function passwordChangedMessage(to: Contact, locale?: Locale): QueuedMessage {
  const t = words(locale);
  return to.kind === "email"
    ? { channel: "email", to: to.value, subject: t.changedSubject, text: t.changedEmail }
    : { channel: "sms", to: to.value, text: t.changedSms };
}

export function verifyCodeMessage(to: Contact, code: string, locale?: Locale): QueuedMessage {
  const t = words(locale);
  return to.kind === "email"
    ? { channel: "email", to: to.value, subject: t.verifySubject, text: t.verifyEmail(code) }
    : { channel: "sms", to: to.value, text: t.verifySms(code) };
}

/** A sign-in code, by SMS to a verified mobile number (model/signInCodes.ts). */
export function signInCodeMessage(mobile: string, code: string, locale?: Locale): QueuedMessage {
  return { channel: "sms", to: mobile, text: words(locale).signInSms(code) };
}
