import { useEffect, useMemo } from "react";
import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import { SIGN_UP_WORK, solveStamp, stampIssuedAt } from "@convex/rules/signUpWork";
import { errorData } from "@/lib/errors";

type CreateDraft = (args: { stamp: string }) => Promise<{ draft: string }>;

/** Refusals after which the draft cannot be used again: the next sign-up attempt starts a new one. */
const SPENT = new Set(["DRAFT_NOT_FOUND", "DRAFT_USED_UP"]);

/**
 * A visitor's sign-up draft (convex/model/signUpDrafts.ts): the proof of work is solved in the
 * background as soon as the form opens, the draft is created on first use and kept across retries, so
 * the uploads and the sign-up of one visitor count against one draft.
 */
export function signUpDraftSource(create: CreateDraft) {
  let stamp: Promise<string> | null = null;
  let draft: Promise<string> | null = null;

  /** A solved stamp young enough for the server, solving one if needed; each is used once. */
  async function takeStamp(): Promise<string> {
    const solved = stamp === null ? null : await stamp;
    stamp = null;
    const issuedAt = solved === null ? null : stampIssuedAt(solved);
    if (solved !== null && issuedAt !== null && Date.now() - issuedAt < SIGN_UP_WORK.maxAgeMs / 2)
      return solved;
    return await solveStamp();
  }

  async function createDraft(): Promise<string> {
    const started = Date.now();
    try {
      return (await create({ stamp: await takeStamp() })).draft;
    } catch (error) {
      const data = errorData(error);
      if (data?.code !== "STAMP_EXPIRED" || typeof data.serverTime !== "number") throw error;
      // this device's clock is off: solve for the server's
      return (await create({ stamp: await solveStamp(data.serverTime + (Date.now() - started)) }))
        .draft;
    }
  }

  return {
    /** Starts solving the proof of work before it is needed. */
    prepare() {
      if (stamp !== null) return;
      const solving = solveStamp();
      stamp = solving;
      solving.catch(() => {
        if (stamp === solving) stamp = null;
      });
    },
    /** The draft's token, created on first call. */
    async token(): Promise<string> {
      if (draft === null) {
        const creating = createDraft();
        draft = creating;
        creating.catch(() => {
          if (draft === creating) draft = null;
        });
      }
      return await draft;
    },
    /** Call with a sign-up's or upload's refusal: a draft the server no longer accepts is dropped. */
    refused(error: unknown) {
      const code = errorData(error)?.code;
      if (typeof code === "string" && SPENT.has(code)) draft = null;
    },
  };
}

const STARTS_ON_FORM = ["focusin", "pointerdown", "keydown"] as const;

/**
 * The sign-up form's draft; the proof of work starts once the visitor starts on the form (its ~250
 * Web Crypto calls each wake the page: not while it loads, nor for a visitor who only looks).
 */
export function useSignUpDraft() {
  const create = useMutation(api.signUpDrafts.create);
  const source = useMemo(() => signUpDraftSource(create), [create]);
  useEffect(() => {
    const stop = () => {
      for (const event of STARTS_ON_FORM) document.removeEventListener(event, start);
    };
    const start = () => {
      stop();
      source.prepare();
    };
    for (const event of STARTS_ON_FORM) document.addEventListener(event, start, { passive: true });
    return stop;
  }, [source]);
  return source;
}
