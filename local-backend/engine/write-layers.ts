// A transaction's pending writes, one layer per level: the transaction itself, and each nested
// `ctx.runQuery` / `ctx.runMutation` inside it. A read sees a document's write in the innermost layer
// that has one, else the committed document. Ending a level keeps its writes (merged into the layer
// below, or, for the outermost, handed back for the commit to apply) or drops them, and nothing else.
import type { Doc } from "./document-store.ts";

/** Written documents by id; null for a deleted one. In the order first written. */
export type Writes = Map<string, Doc | null>;

export class WriteLayers {
  private layers: Writes[] = [];

  /** How many levels are open (0: no transaction). */
  get depth(): number {
    return this.layers.length;
  }

  begin() {
    this.layers.push(new Map());
  }

  /** The document as the open levels wrote it (null: deleted); undefined when none of them wrote it. */
  written(id: string): Doc | null | undefined {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const write = this.layers[i].get(id);
      if (write !== undefined) return write;
    }
    return undefined;
  }

  write(id: string, value: Doc | null) {
    const layer = this.layers[this.layers.length - 1];
    if (layer === undefined) throw new Error(`Write outside of transaction ${id}`);
    layer.set(id, value);
  }

  /**
   * Ends the innermost level keeping its writes: merged into the level below (null is returned), or,
   * when it is the outermost, returned for the commit to apply.
   */
  commit(): Writes | null {
    const layer = this.pop();
    const below = this.layers[this.layers.length - 1];
    if (below === undefined) return layer;
    for (const [id, value] of layer) below.set(id, value);
    return null;
  }

  /** Ends the innermost level dropping its writes. */
  rollback() {
    this.pop();
  }

  /** Takes every level away (a snapshot query sees the committed documents only); `unstash` puts them back. */
  stash(): Writes[] {
    const stashed = this.layers;
    this.layers = [];
    return stashed;
  }

  unstash(stashed: Writes[]) {
    this.layers = stashed;
  }

  private pop(): Writes {
    const layer = this.layers.pop();
    if (layer === undefined) throw new Error("Transaction already committed or rolled back");
    return layer;
  }
}
