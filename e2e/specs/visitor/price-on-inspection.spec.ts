import { expect, test } from "../../fixtures";

test("tile/marble: 'Nrs. 0' says 'Price on inspection' beside it", async ({ actor }) => {
  const visitor = await actor({ viewport: { width: 360, height: 800 } });
  await visitor.page.goto("/services-tile-Marbal");
  for (const name of [
    "Tile Fitting Wall",
    "Tile Fitting Floor",
    "Tile Fitting Roof",
    "Marble Fitting Floor",
    "Marble Fitting Wall",
  ]) {
    const row = visitor.page.getByRole("listitem").filter({ hasText: name });
    await expect(row).toContainText("Nrs. 0");
    await expect(row).toContainText("Price on inspection");
  }
});
