import type { RequestHandler } from 'express';
import type { operations } from '../../generated/api';

type Operation = keyof operations;
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

export type PathParams<O extends Operation> = operations[O]['parameters'] extends { path: infer P } ? P : Record<string, never>;
/** api.yaml's per-field `filter[field]` parameters, as the service's query parser reads them: one `filter` object. */
type FilterKey = `filter[${string}]`;
type Filters<Q> = { [K in keyof Q as K extends `filter[${infer Field}]` ? Field : never]?: NonNullable<Q[K]> };
type NestFilters<Q> = [Extract<keyof Q, FilterKey>] extends [never] ? Q : Omit<Q, FilterKey> & { filter?: Filters<Q> };
export type QueryParams<O extends Operation> = NestFilters<NonNullable<operations[O]['parameters']['query']>>;
type BodyOf<T> = T extends { content: infer Content } ? Content[keyof Content] : never;
export type RequestBody<O extends Operation> = operations[O] extends { requestBody?: infer B } ? BodyOf<NonNullable<B>> : never;
type SuccessStatus = 200 | 201 | 204;
export type SuccessBody<O extends Operation> = {
  [S in keyof operations[O]['responses']]: S extends SuccessStatus ? JsonOf<operations[O]['responses'][S]> : never;
}[keyof operations[O]['responses']];

/** What an operation without a JSON body or query (a page, a file) is typed with. */
type OrUnknown<T> = [T] extends [never] ? unknown : T;

/**
 * An Express handler typed from api.yaml's operation: params, query (after the validator's
 * coercion and defaults), body and success body all come from generated/.
 */
export type Handler<O extends Operation> = RequestHandler<PathParams<O>, OrUnknown<SuccessBody<O>>, OrUnknown<RequestBody<O>>, OrUnknown<QueryParams<O>>>;
