/**
 * The preview origins: port P of workspace W is served at `<scheme>://P-W.<domain><:port>/`, on the
 * IDE's own server and port (or those of CODER_PUBLIC_URL when a proxy publishes the service).
 */
export class PreviewOrigins {
  private listeningPort: number | null = null;

  constructor(
    readonly domain: string,
    private readonly publicUrl: string | undefined,
  ) {}

  /** The service listens: its port is the preview origins' port unless a public URL says otherwise. */
  listening(port: number): void {
    this.listeningPort = port;
  }

  /** The root URL of one port's preview. */
  root(workspaceId: string, port: number): string {
    return `${this.origin(workspaceId, port)}/`;
  }

  origin(workspaceId: string, port: number): string {
    const host = `${port}-${workspaceId}.${this.domain}`;
    if (this.publicUrl) {
      const url = new URL(this.publicUrl);
      return `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`;
    }
    return `http://${host}${this.listeningPort ? `:${this.listeningPort}` : ""}`;
  }
}
