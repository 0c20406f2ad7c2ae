// Ids are unguessable: a refresh token or file URL made of ids cannot be found from its neighbours.
import { anyApi } from "convex/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type Backend } from "../server.ts";
import { fixtureConvexDir, newClient, removeTempDataDirs, tempDataDir } from "./helpers.ts";

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend({
    port: 0,
    sitePort: 0,
    dataDir: tempDataDir(),
    convexDir: fixtureConvexDir,
  });
});

afterAll(async () => {
  await backend.close();
  removeTempDataDirs();
});

const digits = (id: string) => BigInt(/^[0-9]+/.exec(id)![0]);

describe("document ids", () => {
  it("carry 128 random bits: consecutive inserts are not neighbours and no neighbour exists", async () => {
    const client = newClient(backend.url);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 50; i++)
        ids.push(await client.mutation(anyApi.messages.send, { channel: "ids", body: `m${i}` }));
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[0-9]{39}messages$/);
      const gaps = ids.slice(1).map((id, i) => digits(id) - digits(ids[i]));
      expect(gaps.every((gap) => gap > 1_000_000n || gap < -1_000_000n)).toBe(true);

      let tried = 0;
      let hits = 0;
      for (const id of ids)
        for (let delta = -10n; delta <= 10n; delta++) {
          if (delta === 0n) continue;
          const guess = `${(digits(id) + delta).toString().padStart(39, "0")}messages`;
          tried += 1;
          if (backend.engine.database.get(guess) !== null) hits += 1;
        }
      expect(tried).toBe(1000);
      expect(hits).toBe(0);
    } finally {
      await client.close();
    }
  });
});
