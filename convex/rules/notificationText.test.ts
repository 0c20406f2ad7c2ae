import { describe, expect, test } from "vitest";
import { NOTICE_WORDS, noticeText } from "./notificationText";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((p) => p[1]).sort();

describe("the notification catalogue", () => {
  test("every word is in Nepali too, with the same placeholders", () => {
    const en = NOTICE_WORDS.en;
    const ne = NOTICE_WORDS["ne-NP"];
    expect(Object.keys(ne).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(ne[key].trim(), `${key} is empty in Nepali`).not.toBe("");
      expect(placeholders(ne[key]), `${key} placeholders`).toEqual(placeholders(en[key]));
      if (key !== "list_separator") expect(ne[key], `${key} is not translated`).not.toBe(en[key]);
    }
  });

  test("words a notification from its kind and params, names and digits in the language", () => {
    const completed = {
      kind: "booking.completed",
      title: "Job completed",
      body: "",
      params: { actor: "", actorRole: "professional", services: "House Wiring", price: "145000" },
    };
    expect(noticeText("en", completed).body).toBe(
      "The professional completed House Wiring. Total Nrs. 1,45,000. Please rate the job.",
    );
    expect(noticeText("ne-NP", completed)).toEqual({
      title: "काम सकियो",
      body: "पेशेवरले घरको वायरिङ पूरा गर्नुभयो। जम्मा रु. १,४५,०००। कृपया कामको मूल्याङ्कन गर्नुहोस्।",
    });
  });

  test("a kind it does not know keeps the stored words", () => {
    expect(noticeText("ne-NP", { kind: "system.other", title: "T", body: "B" })).toEqual({
      title: "T",
      body: "B",
    });
  });
});
