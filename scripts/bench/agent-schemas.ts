/**
 * api.yaml's agent schemas with their $refs resolved and descriptions left out, for the Fastify
 * app's validation and serialisation. test/ops/bench-apps.test.ts checks them against api.yaml.
 */
const AGENT_NAME = { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' } as const;
const AGENT_TYPE = { type: 'string', enum: ['type_a', 'type_b', 'type_c'] } as const;
const AGENT_STATUS = { type: 'string', enum: ['idle', 'running', 'paused', 'error'] } as const;
const TIMESTAMP = { type: 'string', format: 'date-time' } as const;
const MAX_CONCURRENCY = { type: ['integer', 'null'], minimum: 1, maximum: 1000 } as const;

export const AGENT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'owner_id', 'workspace_id', 'name', 'type', 'status', 'created_at', 'updated_at', 'max_concurrency'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    owner_id: { type: ['string', 'null'], format: 'uuid' },
    workspace_id: { type: 'string', format: 'uuid' },
    name: AGENT_NAME,
    type: AGENT_TYPE,
    status: AGENT_STATUS,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    max_concurrency: MAX_CONCURRENCY,
  },
} as const;

export const AGENT_CREATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type'],
  properties: { name: AGENT_NAME, type: AGENT_TYPE, max_concurrency: { allOf: [MAX_CONCURRENCY], default: null } },
} as const;

/** listAgents' query: the Skip and Limit parameters and the status filter. */
export const LIST_QUERY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    skip: { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    status: AGENT_STATUS,
  },
} as const;
