// The bytes of the deployment's stored files, by storage id. A file's `_storage` document (size, sha256,
// content type) is the database's; a file is there while that document is committed, and its bytes
// go when the document's delete commits.
import { createHash } from "node:crypto";

/** A file about to be stored, its bytes on disk (Persistence.stageBlob). */
export interface StagedBlob {
  blob: Blob;
  /** sha256 in base64, as `_storage` documents keep it. */
  sha256: string;
  discard(): void;
}

export class FileStore {
  private readonly blobs = new Map<string, Blob>();

  constructor(
    /** Whether the `_storage` document of `storageId` is committed. */
    private readonly committed: (storageId: string) => boolean,
  ) {}

  /** A stored file's bytes; undefined when it is not (or no longer) stored. */
  get(storageId: string): Blob | undefined {
    return this.committed(storageId) ? this.blobs.get(storageId) : undefined;
  }

  put(storageId: string, blob: Blob) {
    this.blobs.set(storageId, blob);
  }

  /** Swaps a stored file's Blob for one with the same bytes (read from disk instead of held in memory). */
  replace(storageId: string, blob: Blob) {
    if (this.blobs.has(storageId)) this.blobs.set(storageId, blob);
  }

  /** Its `_storage` document was deleted. */
  delete(storageId: string) {
    this.blobs.delete(storageId);
  }

  /** Persisted files: those whose `_storage` document was restored. */
  restore(files: Map<string, Blob>) {
    for (const [storageId, blob] of files) if (this.committed(storageId)) this.put(storageId, blob);
  }
}

/** A file's sha256 as its `_storage` document keeps it (base64), read a chunk at a time. */
export async function blobSha256(blob: Blob): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of blob.stream() as unknown as AsyncIterable<Uint8Array>)
    hash.update(chunk);
  return hash.digest("base64");
}
