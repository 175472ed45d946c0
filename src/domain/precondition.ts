import { preconditionFailed } from '../errors';

/** A condition on the current version of what a request changes (HTTP's If-Match, below HTTP). */
export type Precondition<T> = (current: T) => boolean;

export function assertPrecondition<T>(precondition: Precondition<T> | undefined, current: T): void {
  if (precondition && !precondition(current)) throw preconditionFailed();
}
