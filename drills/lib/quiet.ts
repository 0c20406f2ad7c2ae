/** Runs `fn` with console output swallowed (the backend logs every refused request); returns its result. */
export async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const saved = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    debug: console.debug,
  };
  const mute = () => undefined;
  Object.assign(console, { log: mute, info: mute, warn: mute, error: mute, debug: mute });
  try {
    return await fn();
  } finally {
    Object.assign(console, saved);
  }
}
