import type { RequestHandler } from 'express';
import type { operations } from '../../generated/api';

type Operation = keyof operations;
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

export type PathParams<O extends Operation> = operations[O]['parameters'] extends { path: infer P } ? P : Record<string, never>;
export type QueryParams<O extends Operation> = NonNullable<operations[O]['parameters']['query']>;
export type RequestBody<O extends Operation> = operations[O] extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
type SuccessStatus = 200 | 201 | 204;
export type SuccessBody<O extends Operation> = {
  [S in keyof operations[O]['responses']]: S extends SuccessStatus ? JsonOf<operations[O]['responses'][S]> : never;
}[keyof operations[O]['responses']];

/**
 * An Express handler typed from api.yaml's operation: params, query (after the validator's
 * coercion and defaults), body and success body all come from generated/.
 */
export type Handler<O extends Operation> = RequestHandler<PathParams<O>, SuccessBody<O>, RequestBody<O>, QueryParams<O>>;
