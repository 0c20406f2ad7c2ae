import { expect, type APIRequestContext } from "@playwright/test";
import { E2E } from "../env";

/** The documented /api HTTP endpoints (spec §7), as an outside client (a mobile app) uses them. */
export class ApiClient {
  constructor(readonly request: APIRequestContext) {}

  async professionalLogin(
    email: string,
    password: string,
  ): Promise<{ token: string; userId: string }> {
    const res = await this.request.post(`${E2E.siteUrl}/api/technicians/login`, {
      data: { email, password },
    });
    const body = await res.json();
    if (!res.ok() || !body.success)
      throw new Error(`login failed: ${res.status()} ${JSON.stringify(body)}`);
    return { token: body.token, userId: body.user._id };
  }

  /** Reports a position, retrying while the server's one-update-per-second limit answers 429. */
  async reportPosition(
    auth: { token: string; userId: string },
    latitude: number,
    longitude: number,
  ) {
    await expect(async () => {
      const res = await this.request.post(`${E2E.siteUrl}/api/current-location`, {
        headers: { Authorization: `Bearer ${auth.token}` },
        data: { userId: auth.userId, latitude, longitude },
      });
      expect(res.status(), await res.text()).toBe(200);
    }).toPass({ intervals: [250, 500, 1000] });
  }
}
