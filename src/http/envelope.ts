/** The conventions surface's single-item envelope. */
export function envelope<T>(data: T): { data: T; meta: { timestamp: string } } {
  return { data, meta: { timestamp: new Date().toISOString() } };
}
