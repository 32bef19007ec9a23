/** A fake upstream as a real HTTP server on 127.0.0.1, on a port of its own; subclasses answer. */
export abstract class LoopbackServer {
  private readonly server: ReturnType<typeof Bun.serve>;

  constructor() {
    this.server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => this.answer(request) });
  }

  protected abstract answer(request: Request): Response | Promise<Response>;

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  stop(): void {
    this.server.stop(true);
  }
}
