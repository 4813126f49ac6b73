/**
 * A TCP proxy on loopback, as a virtual address in front of a database: every connection is forwarded to the target
 * port, and moving the target (a failover) cuts every connection open through it.
 */
import { connect, createServer, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  /** Forwards new connections to this port from now on, and cuts every open one. */
  moveTo(port: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: number): Promise<TcpProxy> {
  let to = target;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(to, "127.0.0.1");
    const cut = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("error", cut);
      socket.on("close", cut);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    moveTo: (port) => {
      to = port;
      for (const socket of [...open]) socket.destroy();
    },
    close: () => {
      for (const socket of [...open]) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
