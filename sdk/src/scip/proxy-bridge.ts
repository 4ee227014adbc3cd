import { connect, createServer, type Server, type Socket } from 'node:net';

/** An HTTP proxy address an external tool can use: host and port on the loopback interface. */
export interface ToolProxy {
  readonly host: string;
  readonly port: number;
  /** `http://host:port`, for `HTTPS_PROXY` and `HTTP_PROXY`. */
  readonly url: string;
}

/** A running {@link startProxyBridge}. */
export interface ProxyBridge extends ToolProxy {
  close(): Promise<void>;
}

/**
 * The host's allowlist proxy as an external tool can reach it. In the elevated tier on Linux and
 * macOS the host passes its proxy as a unix socket (`TRAVSR_PROXY_SOCKET`), which build tools
 * (Maven, Gradle, sbt, dotnet) cannot use: this listens on `127.0.0.1` inside the sandbox and
 * relays every connection to the socket, so the tool is given `HTTPS_PROXY=http://127.0.0.1:<port>`
 * and the host still decides, per `CONNECT`, what may be reached. On Windows the host's proxy is
 * already a loopback address (`TRAVSR_PROXY_ADDRESS`) and is returned as it is, with nothing to close.
 * Undefined when the plugin runs without network (standard and native-ipc tiers).
 *
 * @example
 * ```ts
 * const proxy = await startProxyBridge();
 * if (proxy) env.HTTPS_PROXY = proxy.url;
 * // … run the tool …
 * await proxy?.close();
 * ```
 */
export async function startProxyBridge(env: NodeJS.ProcessEnv = process.env): Promise<ProxyBridge | undefined> {
  const address = env['TRAVSR_PROXY_ADDRESS'];
  if (address) {
    const at = address.lastIndexOf(':');
    const host = address.slice(0, at);
    const port = Number(address.slice(at + 1));
    if (host && Number.isInteger(port) && port > 0) return { host, port, url: `http://${host}:${port}`, close: () => Promise.resolve() };
  }
  const socketPath = env['TRAVSR_PROXY_SOCKET'];
  if (!socketPath) return undefined;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(socketPath);
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The bridge never keeps the plugin alive by itself.
  server.unref();
  const port = (server.address() as { port: number }).port;
  return {
    host: '127.0.0.1',
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The JVM system properties that send a Java tool's HTTP and HTTPS through `proxy` (Maven,
 * Gradle, sbt, coursier read them), for `JAVA_TOOL_OPTIONS`; empty without a proxy. `extra` is
 * appended (e.g. `-Xmx2g`).
 *
 * @example
 * ```ts
 * env.JAVA_TOOL_OPTIONS = jvmProxyOptions(run.proxy); // '-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=40123 -Dhttps.proxyHost=…'
 * ```
 */
export function jvmProxyOptions(proxy: Pick<ToolProxy, 'host' | 'port'> | undefined, extra: readonly string[] = []): string {
  const props = proxy
    ? [
        `-Dhttp.proxyHost=${proxy.host}`,
        `-Dhttp.proxyPort=${proxy.port}`,
        `-Dhttps.proxyHost=${proxy.host}`,
        `-Dhttps.proxyPort=${proxy.port}`,
        // Loopback only through the proxy too: the allowlist decides, not the JVM's defaults.
        '-Dhttp.nonProxyHosts=',
      ]
    : [];
  return [...props, ...extra].join(' ');
}
