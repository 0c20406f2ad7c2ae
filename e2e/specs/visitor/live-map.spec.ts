import { expect, test } from "../../fixtures";

// The demo electrician of Nepalgunj (convex/model/demoData.ts); a visitor sees their ~500 m marker.
const PRO = {
  email: "professional@demo.np",
  password: "demo-password-1",
  name: "Ram Bahadur Thapa",
};
// one ~500 m grid cell north, then back: the marker moves and stays in the map's view
const STEPS = [
  { latitude: 28.0501, longitude: 81.6167 },
  { latitude: 28.0551, longitude: 81.6167 },
  { latitude: 28.0501, longitude: 81.6167 },
];

test("a professional's browser moves their rounded marker on visitors' maps, at 360 and 1280 px", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const professional = await actor({ permissions: ["geolocation"], geolocation: STEPS[0] });
  await professional.auth.professionalSignIn(PRO.email, PRO.password);

  for (const [i, width] of [360, 1280].entries()) {
    const visitor = await actor({ viewport: { width, height: 800 } });
    await visitor.search.open("Electrician", "Nepalgunj");
    await expect(visitor.search.marker(PRO.name)).toBeVisible();
    const before = await visitor.search.markerTransform(PRO.name);
    await professional.page.context().setGeolocation(STEPS[i + 1]);
    await expect
      .poll(() => visitor.search.markerTransform(PRO.name), { timeout: 20_000 })
      .not.toBe(before);
    const marker = visitor.search.marker(PRO.name);
    await marker.scrollIntoViewIfNeeded();
    await expect(marker).toBeInViewport();
    await visitor.page.screenshot({ path: test.info().outputPath(`live-map-${width}.png`) });
  }
});
