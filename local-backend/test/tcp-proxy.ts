// A TCP proxy in front of a backend, for the drills and tests that cut or stall connections: it can swallow
// either direction, stop reading from the backend (a client that stops reading), be pointed at a
// restarted backend, and cut every connection at once.
import { createServer, Socket, type AddressInfo } from "node:net";

export interface TcpProxy {
  url: string;
  state: { target: number; dropUp: boolean; dropDown: boolean; droppedResponses: number };
  /** Stops (true) or resumes (false) reading what the backend sends, so its socket buffers fill up. */
  stallDown(stalled: boolean): void;
  cut(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const toBackend = new Set<Socket>();
  let stalled = false;
  const state = { target, dropDown: false, dropUp: false, droppedResponses: 0 };
  const server = createServer((inbound) => {
    const outbound = new Socket();
    outbound.connect(state.target, "127.0.0.1");
    if (stalled) outbound.pause();
    open.add(inbound);
    open.add(outbound);
    toBackend.add(outbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
      toBackend.delete(outbound);
    };
    inbound.on("error", drop).on("close", drop);
    outbound.on("error", drop).on("close", drop);
    inbound.on("data", (chunk: Buffer) => {
      if (!state.dropUp) outbound.write(chunk);
    });
    outbound.on("data", (chunk: Buffer) => {
      if (!state.dropDown) return void inbound.write(chunk);
      if (chunk.includes("MutationResponse")) state.droppedResponses += 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const cut = () => {
    for (const socket of [...open]) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    stallDown(on) {
      stalled = on;
      for (const socket of toBackend) {
        if (on) socket.pause();
        else socket.resume();
      }
    },
    cut,
    close: () => {
      cut();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
