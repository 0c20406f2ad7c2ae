/**
 * What a browser's user agent says about the device, enough for someone to tell their devices apart
 * ("Chrome on Android"): the devices list and push subscriptions' labels read it.
 */

/** The longest user agent kept (real ones are under 300 characters). */
export const USER_AGENT_MAX = 512;

const BROWSERS: [string, RegExp][] = [
  ["Edge", /Edg\//],
  ["Samsung Internet", /SamsungBrowser/],
  ["Opera", /OPR\//],
  ["Firefox", /Firefox\/|FxiOS/],
  ["Chrome", /Chrome\/|CriOS/],
  ["Safari", /Safari\//],
];

const SYSTEMS: [string, RegExp][] = [
  ["Android", /Android/],
  ["iPhone", /iPhone|iPad/],
  ["Windows", /Windows/],
  ["ChromeOS", /CrOS/],
  ["macOS", /Mac OS X/],
  ["Linux", /Linux/],
];

export type DeviceKind = { browser: string | null; system: string | null };

/** The browser and operating system a user agent names, each null when it names none we know. */
export function deviceOf(userAgent: string): DeviceKind {
  const find = (list: [string, RegExp][]) => list.find(([, re]) => re.test(userAgent))?.[0] ?? null;
  return { browser: find(BROWSERS), system: find(SYSTEMS) };
}
