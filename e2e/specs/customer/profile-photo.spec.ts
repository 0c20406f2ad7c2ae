import { expect, test } from "../../fixtures";
import { unique, uniquePhone } from "../../env";

test("a 12-megapixel phone photo over the 5 MB server limit is made smaller in the browser and saved", async ({
  actor,
}) => {
  const id = unique();
  const customer = await actor();
  const user = {
    name: "Gita Kumari Shrestha",
    email: `gita.${id}@example.np`,
    phone: uniquePhone(),
    password: "gita-password-1",
    address: "Ward 3, Lakeside, Pokhara",
    zipCode: "33700",
  };
  await customer.auth.signUpAndLogInCustomer(user);

  // Noise compresses badly, so a 4000×3000 JPEG at a camera's quality is well over 5 MB — like a phone photo.
  const photo = await customer.page
    .evaluate(async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 4000;
      canvas.height = 3000;
      const g = canvas.getContext("2d")!;
      const pixels = g.createImageData(canvas.width, canvas.height);
      for (let i = 0; i < pixels.data.length; i++)
        pixels.data[i] = (i & 3) === 3 ? 255 : Math.random() * 256;
      g.putImageData(pixels, 0, 0);
      const blob = await new Promise<Blob>((resolve) =>
        canvas.toBlob((b) => resolve(b!), "image/jpeg", 0.9),
      );
      const dataUrl = await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as string);
        reader.readAsDataURL(blob);
      });
      return dataUrl.slice(dataUrl.indexOf(",") + 1);
    })
    .then((base64) => Buffer.from(base64, "base64"));
  expect(photo.length).toBeGreaterThan(5 * 1024 * 1024);

  await customer.page.goto("/customer/profile");
  await customer.page.getByRole("button", { name: "Edit" }).click();
  await customer.page
    .getByLabel("Profile Photo")
    .setInputFiles({ name: "IMG_20261122.jpg", mimeType: "image/jpeg", buffer: photo });
  await customer.page.getByRole("button", { name: "Save changes" }).click();
  await expect(customer.page.getByText("Profile updated.")).toBeVisible({ timeout: 20_000 });

  const avatar = customer.page.getByRole("img", { name: `${user.name}'s profile photo` }).first();
  await expect(avatar).toHaveJSProperty("complete", true);
  const stored = await customer.page.request.get((await avatar.getAttribute("src"))!);
  expect(stored.headers()["content-type"]).toBe("image/jpeg");
  expect((await stored.body()).length).toBeLessThanOrEqual(1024 * 1024);
  const { width, height } = await avatar.evaluate((img: HTMLImageElement) => ({
    width: img.naturalWidth,
    height: img.naturalHeight,
  }));
  expect(Math.max(width, height)).toBeLessThanOrEqual(2048);
  expect(width / height).toBeCloseTo(4 / 3, 1);
});
