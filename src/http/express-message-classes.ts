import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * Request and response classes whose instances Node creates with Express's prototypes already in
 * place. Express otherwise gives every request and response a new prototype as it enters the app,
 * and V8 then gives each of them a hidden class of its own: every property access on them, in
 * Node's HTTP code as much as in Express's and the service's, misses its inline cache and is looked
 * up again (about 165 misses per read on Node 20, a fifth of a read's CPU; Node 24's V8 shares one
 * class without this). With the prototype already right, Express's `Object.setPrototypeOf` changes
 * nothing, and all requests share one hidden class.
 */
export function expressMessageClassesOf(app: Express): { IncomingMessage?: typeof IncomingMessage; ServerResponse?: typeof ServerResponse } {
  // Node's message classes are constructor functions that run on an object made elsewhere; a
  // Node whose classes are not (`class` syntax) keeps its own, and Express sets the prototypes.
  if (isClassSyntax(IncomingMessage) || isClassSyntax(ServerResponse)) return {};
  // Reflect.construct with a new target would not do: V8 gives its objects a hidden class each.
  const request = function (this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    (IncomingMessage as unknown as (this: IncomingMessage, ...rest: typeof args) => void).apply(this, args);
  } as unknown as typeof IncomingMessage;
  request.prototype = app.request;
  const response = function (this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    (ServerResponse as unknown as (this: ServerResponse, ...rest: typeof args) => void).apply(this, args);
  } as unknown as typeof ServerResponse;
  response.prototype = app.response as unknown as ServerResponse;
  return { IncomingMessage: request, ServerResponse: response };
}

const isClassSyntax = (constructor: object): boolean => /^class\b/.test(Function.prototype.toString.call(constructor));
