/**
 * What the hostile drill does through the app's own paths, as a signed-in user of the web app would:
 * upload a file to the URL `files:generateUploadUrl` hands out, and make it the profile photo, whose
 * URL `users:viewer` gives (`ctx.storage.getUrl`).
 */
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";

const generateUploadUrl = makeFunctionReference<"mutation", Record<string, never>, string>(
  "files:generateUploadUrl",
);
type Viewer = {
  _id: string;
  name: string;
  phone: string;
  address: string;
  zipCode: string;
  photoUrl: string | null;
};
const viewer = makeFunctionReference<"query", Record<string, never>, Viewer | null>("users:viewer");
const updateProfile = makeFunctionReference<
  "mutation",
  { name: string; phone: string; address: string; zipCode: string; photo?: string },
  null
>("users:updateProfile");

export function clientAs(url: string, token: string): ConvexHttpClient {
  const client = new ConvexHttpClient(url, { logger: false });
  client.setAuth(token);
  return client;
}

/** POSTs `bytes` with `contentType` to a fresh upload URL: the HTTP status and the storage id, if any. */
export async function upload(
  url: string,
  token: string,
  bytes: Uint8Array,
  contentType: string,
): Promise<{ status: number; storageId?: string }> {
  const target = await clientAs(url, token).mutation(generateUploadUrl, {});
  const res = await fetch(target, {
    method: "POST",
    headers: { "Content-Type": contentType },
    body: new Uint8Array(bytes),
  });
  const body = (await res.json().catch(() => ({}))) as { storageId?: string };
  return { status: res.status, storageId: body.storageId };
}

export async function viewerOf(url: string, token: string): Promise<Viewer> {
  const me = await clientAs(url, token).query(viewer, {});
  if (me === null) throw new Error("not signed in");
  return me;
}

/** Makes `storageId` the user's profile photo; returns the photo's URL as the app gets it. */
export async function setPhoto(url: string, token: string, storageId: string): Promise<string> {
  const { name, phone, address, zipCode } = await viewerOf(url, token);
  await clientAs(url, token).mutation(updateProfile, {
    name,
    phone,
    address,
    zipCode,
    photo: storageId,
  });
  const { photoUrl } = await viewerOf(url, token);
  if (photoUrl === null) throw new Error("the photo has no URL");
  return photoUrl;
}
