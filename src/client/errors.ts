/** An answer that is not a success, thrown where a result cannot carry it (iterators, `unwrap`, sign-in). */
export class AgentFleetError<Body = unknown> extends Error {
  override readonly name = 'AgentFleetError';
  /** The HTTP status. */
  readonly status: number;

  constructor(
    /** The answer itself (its body has been read into `body`). */
    readonly response: Response,
    /** The error body `api.yaml` declares for this status. */
    readonly body: Body,
  ) {
    super(describe(response.status, body));
    this.status = response.status;
  }
}

function describe(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { error, message, error_description: description } = body as Record<string, unknown>;
    if (typeof error === 'object' && error !== null) {
      const inner = error as Record<string, unknown>;
      return `${status} ${String(inner['code'])}: ${String(inner['message'])}`;
    }
    if (typeof error === 'string') return `${status} ${error}: ${String(message ?? description ?? '')}`.trimEnd();
  }
  return `${status} ${typeof body === 'string' && body ? body : 'request failed'}`;
}

/** The data of a successful result. */
export type DataOf<R> = R extends { data: infer D; error?: never } ? D : never;
/** The error body of a failed result. */
export type ErrorOf<R> = R extends { error: infer E } ? E : never;

/**
 * The data of a result, or an `AgentFleetError` carrying its typed error body:
 * `const agent = await unwrap(client.GET(...))`.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(pending: Promise<R>): Promise<DataOf<R>> {
  const result = await pending;
  if (result.error !== undefined || !result.response.ok) throw new AgentFleetError<ErrorOf<R>>(result.response, result.error as ErrorOf<R>);
  return result.data as DataOf<R>;
}
