// oidc-provider 9 ships no type declarations: the little of it the test provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
    type: string;
    oidc?: { params?: Record<string, unknown>; body?: Record<string, unknown>; client?: { clientId: string } };
  }

  export interface ClientLike {
    clientId: string;
    grantTypeAllowed(grantType: string): boolean;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (...args: never[]) => void): this;
  }
}
