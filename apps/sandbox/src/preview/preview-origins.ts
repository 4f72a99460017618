/**
 * The preview origins: port P of workspace W is served at `<scheme>://P-W.<domain><:port>/`, on the
 * IDE's own server and port (or those of CODER_PUBLIC_URL when a proxy publishes the service).
 */
export class PreviewOrigins {
  private ide: URL | null = null;

  constructor(
    readonly domain: string,
    private readonly publicUrl: string | undefined,
  ) {}

  /** The service listens at `url`: previews share its scheme and port unless a public URL says otherwise. */
  listening(url: string): void {
    this.ide = new URL(this.publicUrl ?? url);
  }

  /** The origin of one port's preview. */
  origin(workspaceId: string, port: number): string {
    const scheme = this.ide?.protocol ?? "http:";
    const ideport = this.ide?.port ? `:${this.ide.port}` : "";
    return `${scheme}//${port}-${workspaceId}.${this.domain}${ideport}`;
  }

  /** The root URL of one port's preview. */
  root(workspaceId: string, port: number): string {
    return `${this.origin(workspaceId, port)}/`;
  }

  /** The preview origins as one CSP source expression (the IDE's `frame-src`). */
  framePattern(): string {
    const scheme = this.ide?.protocol ?? "http:";
    return `${scheme}//*.${this.domain}${this.ide?.port ? `:${this.ide.port}` : ""}`;
  }

  /** Where a browser without access to a preview goes: the IDE's sign-in. */
  signIn(): string {
    return `${this.ide?.origin ?? ""}/login`;
  }

  /** Whether a request's Origin is the preview origin it was sent to (Host). */
  sameOrigin(origin: string | undefined, host: string | undefined): boolean {
    return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
  }
}
