import { compileRouteTable, shippedRouteTable, type RouteTable } from '../../src/contract/route-table';
import type { ApiDocument } from '../../src/contract/openapi';

const answers = { responses: { '200': { description: 'ok' } } };
const operation = (operationId: string) => ({ get: { operationId, ...answers } });

/** What the table must answer: the first route, in the table's order, whose pattern matches. */
const scanned = (table: RouteTable, path: string) => table.routes.find((route) => route.pattern.test(path))?.template;

describe('the route table', () => {
  const table = compileRouteTable({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/agents': operation('listAgents'),
      '/agents/{agent_id}': operation('getAgent'),
      '/agents/mine': operation('myAgents'),
      '/{tenant}/status': operation('tenantStatus'),
      '/health/ready': operation('ready'),
      '/': operation('home'),
    },
  } as unknown as ApiDocument);

  it('when a literal segment and a parameter both fit, then the literal wins, wherever the routes stand in the document', () => {
    expect(table.find('/agents/mine')?.route.template).toBe('/agents/mine');
    expect(table.find('/agents/a1')).toMatchObject({ route: { template: '/agents/{agent_id}' }, values: ['a1'] });
    expect(table.find('/health/ready')?.route.template).toBe('/health/ready');
  });

  it('when the first segment is a parameter, then any first segment reaches it, one that other routes spell too', () => {
    expect(table.find('/acme/status')).toMatchObject({ route: { template: '/{tenant}/status' }, values: ['acme'] });
    expect(table.find('/health/status')).toMatchObject({ route: { template: '/{tenant}/status' }, values: ['health'] });
    expect(table.find('/agents/status')?.route.template).toBe('/agents/{agent_id}');
  });

  it('when no route has the path, then nothing is found', () => {
    for (const path of ['/agent', '/agents/a1/tasks', '/nothing/here/at/all', '/agents/', '//status']) expect(table.find(path)).toBeUndefined();
    expect(table.find('/')?.route.template).toBe('/');
  });

  it("when every path of api.yaml is asked, then each finds what a scan of the whole table in its order finds", () => {
    const shipped = shippedRouteTable();
    const paths = shipped.routes.flatMap((route) => [
      route.template.replace(/\{[^{}]+\}/g, 'p-1'),
      route.template.replace(/\{[^{}]+\}/g, 'me'),
      `${route.template.replace(/\{[^{}]+\}/g, 'x')}/extra`,
    ]);
    for (const path of paths) expect([path, shipped.find(path)?.route.template]).toEqual([path, scanned(shipped, path)]);
  });
});
