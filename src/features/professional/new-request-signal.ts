import { useQuery } from "convex/react";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { api } from "@convex/_generated/api";

const SOUND_KEY = "gharsewa:request-sound";
const soundListeners = new Set<() => void>();

function soundOn(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

/** Whether a new request sounds and vibrates while the dashboard is open; remembered on this device. */
export function useRequestSound(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(
    (listener) => {
      soundListeners.add(listener);
      return () => soundListeners.delete(listener);
    },
    soundOn,
    () => true,
  );
  const set = (next: boolean) => {
    try {
      localStorage.setItem(SOUND_KEY, next ? "on" : "off");
    } catch {
      // private mode: the choice lasts this page
    }
    soundListeners.forEach((l) => l());
  };
  return [on, set];
}

/** Two short rising beeps (Web Audio, no file to fetch) and a buzz on phones. */
function ring(): void {
  navigator.vibrate?.([200, 100, 200]);
  const Ctx = window.AudioContext;
  if (!Ctx) return;
  const audio = new Ctx();
  [0, 0.25].forEach((start, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880 + i * 220;
    gain.gain.setValueAtTime(0.25, audio.currentTime + start);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + start + 0.2);
    osc.connect(gain).connect(audio.destination);
    osc.start(audio.currentTime + start);
    osc.stop(audio.currentTime + start + 0.2);
  });
  setTimeout(() => void audio.close(), 1000);
}

/**
 * While the dashboard is open: the page title counts the requests waiting for an answer, and a
 * request that arrives rings (unless turned off). Returns whether the professional has taken a job.
 */
export function useNewRequestSignal(): { hasTakenJob: boolean } {
  const signals = useQuery(api.push.dashboardSignals);
  const [sound] = useRequestSound();
  const known = useRef<Set<string> | null>(null);
  const waiting = signals?.waiting;

  useEffect(() => {
    if (waiting === undefined) return;
    const arrived = known.current !== null && waiting.some((id) => !known.current!.has(id));
    known.current = new Set(waiting);
    if (arrived && sound) ring();
  }, [waiting, sound]);

  const count = waiting?.length ?? 0;
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\+?\) /, "");
    document.title = count > 0 ? `(${count}) ${base}` : base;
    return () => {
      document.title = base;
    };
  }, [count]);

  return { hasTakenJob: signals?.hasTakenJob ?? false };
}
