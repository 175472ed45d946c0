// Generated from api.yaml by `npm run generate` (scripts/generate.ts). Do not edit: edit api.yaml and regenerate.

import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './api';

export type { paths, components, operations } from './api';

/** A typed client for the agent fleet API: every path, parameter and body checked by the compiler. */
export function createAgentFleetClient(options: ClientOptions & { baseUrl: string }) {
  return createClient<paths>(options);
}

export type AgentFleetClient = ReturnType<typeof createAgentFleetClient>;
