import { loadApiDocument } from '../../src/contract/openapi';
import { loadContract, type Contract } from '../support/fuzzer/contract';
import { describeEachDatabase, startTestApp } from '../support/harness';
import { roundTripCases, walkRoundTrips, type RoundTripResult } from '../support/spec-drift/round-trip';
import { writeOperations } from '../support/spec-drift/spec-client';

/** One line per case that failed: `POST /agents name: sent "x", read back "y"`. */
const problemsOf = (results: RoundTripResult[]) => results.filter((result) => result.problem).map((result) => `${result.operation} ${result.property}: ${result.problem}`);

/**
 * api.yaml and the service cannot drift apart silently: every writable property of every create
 * and replace body, sent with a valid value that is not its default, comes back on read (or, when
 * write-only, takes effect). Adding an optional property to a body in api.yaml without storing it
 * fails here.
 */
describeEachDatabase('api.yaml request bodies are stored', (get) => {
  let contract: Contract;

  beforeAll(async () => {
    contract = await loadContract();
  });

  it('when api.yaml is walked, then every create and replace with a JSON body has writable properties to send, and each 201 that has no Location is readable in the collection it was posted to', () => {
    const writes = writeOperations(contract);
    expect(writes.length).toBeGreaterThan(0);
    const cases = roundTripCases(contract);
    expect(writes.filter((write) => !cases.some((found) => found.write.name === write.name)).map((write) => write.name)).toEqual([]);
    for (const write of writes.filter((candidate) => candidate.kind === 'create' && !candidate.location)) {
      expect({ write: write.name, collection: contract.operations.some((operation) => operation.method === 'GET' && operation.template === write.operation.template) }).toEqual({ write: write.name, collection: true });
    }
  });

  it('when every writable property of every create and replace body is sent with a non-default value, then each comes back on read, and each write-only one takes effect', async () => {
    const { user } = get();
    const results = await walkRoundTrips(contract, { baseUrl: await get().listen(), principal: { token: user.token, password: user.password } });
    expect(problemsOf(results)).toEqual([]);
    // Every case sent at least one value: nothing was skipped for want of one.
    expect(results.filter((result) => result.values.length === 0).map((result) => `${result.operation} ${result.property}`)).toEqual([]);
    expect(results).toHaveLength(roundTripCases(contract).length);
  });
});

describe('the spec-drift walker', () => {
  it('when api.yaml gains an optional property on AgentCreate that the service does not store, then the walker reports it as not round-tripped for every operation whose body is an AgentCreate, and nothing else', async () => {
    const planted = loadApiDocument();
    const schemas = (planted.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas;
    const agentCreate = schemas.AgentCreate;
    if (!agentCreate) throw new Error('api.yaml has no AgentCreate schema to plant a property in');
    agentCreate.properties.nickname = { type: 'string', minLength: 1, maxLength: 40 };
    const app = await startTestApp('sqlite', { logLevel: 'silent' }, { apiDocument: planted });
    try {
      const contract = await loadContract(planted);
      const uses = (found: { write: { body: Record<string, unknown> } }) => 'nickname' in ((found.write.body.properties ?? {}) as Record<string, unknown>);
      const expected = [...new Set(roundTripCases(contract).filter(uses).map((found) => found.write.name))];
      expect(expected.length).toBeGreaterThan(0);
      const results = await walkRoundTrips(contract, { baseUrl: await app.listen(), principal: { token: app.user.token, password: app.user.password } }, { only: uses });
      const failed = results.filter((result) => result.problem);
      expect(failed.map((result) => result.property)).toEqual(expected.map(() => 'nickname'));
      expect(failed.map((result) => result.operation)).toEqual(expected);
      for (const result of failed) expect(result.problem).toMatch(/^sent "Drift nickname .*", the 20[01] answered undefined$/);
    } finally {
      await app.close();
    }
  });
});
