/**
 * (operation, status) pairs api.yaml declares that no request can make the service answer, each
 * with the reason it cannot, reviewed. The status-coverage reporter does not count them as gaps,
 * and the declared-status matrix does not expect them; an entry that some test did produce, or
 * that api.yaml no longer declares, fails a run of the whole suite, so the list stays true.
 */
export const UNREACHABLE: Record<string, string> = {
  'GET /health 500':
    'Liveness answers from memory, synchronously, with no I/O (src/http/routes/health.ts): only a bug in the service could make it fail. Declared because every operation may answer 500.',
  'GET /health/ready 500':
    'pingDatabase swallows every database error and readiness answers 503 `unavailable` instead; the Redis ping answers a boolean. Only a bug could make it fail.',
  'GET /api/auth/oauth/{provider} 500':
    'The handler catches every failure of starting a sign-in and redirects to /login?error=oauth_failed (302); it reads no database. Only a bug outside that try could answer 500.',
  'GET /api/auth/oauth/{provider} 503':
    'It uses no database (the flow lives in sealed cookies), and the rate limiter lets requests pass while its store is unavailable: nothing it depends on can be unavailable.',
  'GET /api/auth/oauth/{provider}/callback 500':
    'The handler catches every failure after finding the provider (state, code exchange, ID token, the database transaction, the session) and redirects to a failure page (302).',
  'GET /api/auth/oauth/{provider}/callback 503':
    'A database outage during the callback is caught with every other failure and answered with a redirect to /login?error=oauth_failed (302), not 503: api.yaml declares what the handler never sends.',
  'PUT /api/v1/agents/{agent_id} 409':
    'A replace changes only name and type (replaceAgent in src/domain/agents.ts), neither of which has a state or a uniqueness to conflict with; the root PUT /agents/{agent_id} declares no 409.',
  'DELETE /api/v1/agents/{agent_id} 409':
    'deleteAgent throws nothing but 404 and 412: an agent is deleted in any status, its tasks with it (the foreign key cascades).',
  'DELETE /api/v1/agents/{agent_id}/tasks/{task_id} 409':
    'deleteTask throws nothing but 404 and 412: a task is deleted in any status (a running one cancels first).',
  'DELETE /api/v1/users/{user_id} 409':
    'deleteUser throws nothing but 403, 404 and 412: a user is deleted with their posts, agents and tasks (the foreign keys cascade).',
};

/** `GET /health 500`. */
export const unreachableKey = (operation: string, status: string) => `${operation} ${status}`;
