import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * Request and response classes whose instances Node creates with Express's prototypes already in
 * place. Express otherwise gives every request and response a new prototype as it enters the app,
 * and V8 before version 13 then gives each of them a hidden class of its own: every property access
 * on them, in Node's HTTP code as much as in Express's and the service's, misses its inline cache
 * and is looked up again (about 165 misses per read on Node 20, a fifth of a read's CPU). With the
 * prototype already right, Express's `Object.setPrototypeOf` changes nothing, and all requests share
 * one hidden class.
 *
 * V8 13 (Node 24) shares one class between requests whose prototype Express set, and there these
 * classes cost more than they save: the service's read took 180 µs of CPU with them and 160 without,
 * where on Node 22 (V8 12) it took 160 with them and 280 without. From V8 13 on, Node keeps its own.
 */
export function expressMessageClassesOf(app: Express, v8Version: string = process.versions.v8): { IncomingMessage?: typeof IncomingMessage; ServerResponse?: typeof ServerResponse } {
  if (Number.parseInt(v8Version, 10) >= 13) return {};
  // Node's message classes are constructor functions that run on an object made elsewhere; a
  // Node whose classes are not (`class` syntax) keeps its own, and Express sets the prototypes.
  if (isClassSyntax(IncomingMessage) || isClassSyntax(ServerResponse)) return {};
  return { IncomingMessage: withPrototype(IncomingMessage, app.request), ServerResponse: withPrototype(ServerResponse, app.response) };
}

/**
 * A constructor that runs `base` on an object whose prototype is `prototype`. Reflect.construct
 * with a new target would not do: V8 gives the objects it makes a hidden class each.
 */
function withPrototype<Base extends typeof IncomingMessage | typeof ServerResponse>(base: Base, prototype: object): Base {
  const run = base as unknown as (this: unknown, first: unknown, second: unknown) => void;
  const made = function (this: unknown, first: unknown, second: unknown) {
    run.call(this, first, second);
  };
  made.prototype = prototype;
  return made as unknown as Base;
}

const isClassSyntax = (constructor: object): boolean => /^class\b/.test(Function.prototype.toString.call(constructor));
