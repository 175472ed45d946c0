/**
 * The application's single error vocabulary. Domain and data code throw these; the HTTP error
 * handler alone decides how each one is written on the wire (root surface or /api envelope).
 */
export type ErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'state_conflict';

export interface FieldProblem {
  field: string;
  in: 'body' | 'query' | 'path' | 'header';
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const agentNotFound = () => new AppError('not_found', 'Agent not found');
export const taskNotFound = () => new AppError('not_found', 'Task not found');
export const userNotFound = () => new AppError('not_found', 'User not found');

export const stateConflict = (message: string, details?: Record<string, unknown>) =>
  new AppError('state_conflict', message, details);

export const duplicate = (message: string) => new AppError('conflict', message);

/** A value the schema allows but the rules do not (raised by domain code: 400). */
export const invalidValue = (message: string, fields: FieldProblem[]) =>
  new AppError('validation_error', message, { fields });

export const notAuthenticated = () => new AppError('unauthorized', 'Not authenticated');
export const invalidCredentials = () => new AppError('unauthorized', 'Could not validate credentials');
export const wrongPassword = () => new AppError('unauthorized', 'Invalid email or password');
export const invalidApiKey = () => new AppError('forbidden', 'Invalid API key');
export const forbidden = (message: string) => new AppError('forbidden', message);

/** RFC 6749 section 5.2 errors of the token endpoint. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
