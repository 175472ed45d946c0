import type { Step } from './dispatch';
import { pathOf, type OperationId, type RouteTable } from '../contract/route-table';
import type { Handler } from './typed-handler';

/** The path of an operation with its parameters filled in (route-table's pathOf, bound to the app's table). */
export type PathTo = (operationId: OperationId, params?: Record<string, string>) => string;

export function pathToOf(table: RouteTable): PathTo {
  return (operationId, params) => pathOf(table, operationId, params);
}

/** api.yaml's operations, each with its handler: the spec is the routing table. */
export type OperationHandlers = { [O in OperationId]: Handler<O> };

/**
 * The handler of every operation the document declares, by operationId. A document operation
 * without a handler, or a handler that names no operation of the document, stops the service
 * at start: nothing is served by a path the contract does not know, and nothing the contract
 * declares answers 404.
 */
export function bindHandlers(table: RouteTable, handlers: Partial<Record<string, unknown>>): ReadonlyMap<string, Step> {
  const missing = [...table.operations.keys()].filter((operationId) => typeof handlers[operationId] !== 'function');
  const unknown = Object.keys(handlers).filter((operationId) => !table.operations.has(operationId));
  const problems = [
    ...(missing.length > 0 ? [`operations of api.yaml without a handler: ${missing.join(', ')}`] : []),
    ...(unknown.length > 0 ? [`handlers for operations api.yaml does not declare: ${unknown.join(', ')}`] : []),
  ];
  if (problems.length > 0) throw new Error(`The operation table does not match api.yaml: ${problems.join('; ')}`);
  // Each handler is typed by its own operation; the dispatcher runs it only for that operation,
  // after the validator has checked the request against it.
  return new Map(Object.entries(handlers) as Array<[string, Step]>);
}
