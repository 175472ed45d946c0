import type { FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '../../generated/api.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch';
type AnyMedia = `${string}/${string}`;

/** The paths of `api.yaml` that have an operation for this method. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];

type RequiredKeysOf<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];

/** openapi-fetch's rule: the options argument is optional when nothing in it is required. */
export type InitParam<I> = RequiredKeysOf<I> extends never ? [(I & { [key: string]: unknown })?] : [I & { [key: string]: unknown }];

type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];

type AssignableToEach<M, All> = (All extends unknown ? ([M] extends [All] ? true : false) : never) extends true ? true : false;

/**
 * The member of a union that is assignable to every other member. `api.yaml` declares a resource
 * on the conventions surface as `anyOf: [full representation, sparse fieldset]`; the full one has
 * every always-present field required, so it is assignable to the fieldset and is picked here.
 */
type Fullest<U, All = U> = U extends unknown ? (AssignableToEach<U, All> extends true ? U : never) : never;

/** What `fields=` answers: `id`, the fields named, and the embeds `include` may add. */
export type Sparse<T, Field> = Pick<T, Extract<keyof T, 'id' | Field | OptionalKeys<T>>>;

type ShapeItem<U, Field> = [U] extends [object] ? ([Field] extends [never] ? Fullest<U> : Sparse<Fullest<U>, Field>) : U;

type ShapeBody<D, Field> = D extends readonly (infer E)[]
  ? ShapeItem<E, Field>[]
  : D extends { data: infer X }
    ? { [K in keyof D]: K extends 'data' ? ([X] extends [readonly (infer E)[]] ? ShapeItem<E, Field>[] : ShapeItem<X, Field>) : D[K] }
    : D;

/** The names passed in `params.query.fields`, or never when the request asks for full representations. */
export type FieldsOf<I> = I extends { params?: { query?: infer Q } }
  ? NonNullable<Q> extends { fields?: infer F }
    ? NonNullable<F> extends readonly (infer Name)[]
      ? Name
      : never
    : never
  : never;

/**
 * openapi-fetch's result with resources typed by what the request asked for: the full
 * representation (every always-present field required) without `fields`, only the fields named
 * with it.
 */
export type Shaped<R, I> = R extends { data: infer D; error?: never; response: Response }
  ? { data: ShapeBody<D, FieldsOf<I>>; error?: never; response: Response }
  : R;

export type Result<P extends keyof paths, M extends HttpMethod, I> = Shaped<FetchResponse<paths[P][M] & Record<string | number, any>, I, AnyMedia>, I>;

/** A typed method: the path, its parameters and its body are checked against `api.yaml`. */
export type Method<M extends HttpMethod> = <P extends PathsWith<M>, I extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitParam<I>
) => Promise<Result<P, M, I>>;

/** The body of a successful answer. */
export type SuccessBody<P extends keyof paths, M extends HttpMethod, I> = Result<P, M, I> extends infer R ? (R extends { data: infer D; error?: never } ? D : never) : never;

/** The error bodies an operation declares (a union over its statuses). */
export type ErrorBody<P extends keyof paths, M extends HttpMethod> = Result<P, M, undefined> extends infer R ? (R extends { error: infer E } ? E : never) : never;

type GetQuery<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;

/** The collections `paginate` can walk: the GET operations that take a cursor, a page or a skip. */
export type CollectionPath = {
  [P in PathsWith<'get'>]: [Extract<keyof GetQuery<P>, 'cursor' | 'page' | 'skip'>] extends [never] ? never : P;
}[PathsWith<'get'>];

export type ItemOf<B> = B extends readonly (infer E)[] ? E : B extends { data: readonly (infer E)[] } ? E : never;
