import { spawn } from 'node:child_process';
import { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import express from 'express';
import { expressMessageClassesOf } from '../../src/http/express-message-classes';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const NODE_22_V8 = '12.4.254.21-node.57';
const NODE_24_V8 = '13.6.233.17-node.53';

/**
 * Serves pairs of requests held together on the service's HTTP server in a process run with V8's
 * natives syntax, and answers whether the two requests in flight, and their responses, shared one
 * hidden class. On Node 20, an Express app served by Node's own server (`app.listen`) answers false
 * for both: Express's `Object.setPrototypeOf` gives each request and response a class of its own.
 */
function hiddenClassesOfRequestsInFlight(): Promise<Array<{ req: boolean; res: boolean }>> {
  const source = `
    const express = require('express');
    const { createHttpServer } = require('./src/http/http-server');
    const { createMetrics } = require('./src/http/observability');
    const { createLogger } = require('./src/logger');
    const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)');
    const app = express();
    let held = [];
    app.get('/', (req, res) => {
      held.push([req, res]);
      if (held.length < 2) return;
      const [[req1, res1], [req2, res2]] = held;
      held = [];
      const body = JSON.stringify({ req: sameHiddenClass(req1, req2), res: sameHiddenClass(res1, res2) });
      res1.json(JSON.parse(body));
      res2.json(JSON.parse(body));
    });
    const timeouts = { requestTimeoutMs: 30000, headersTimeoutMs: 10000, keepAliveTimeoutMs: 5000 };
    const server = createHttpServer(app, { logger: createLogger({ logLevel: 'silent' }), metrics: createMetrics(), timeouts });
    server.listen(0, '127.0.0.1', async () => {
      const url = 'http://127.0.0.1:' + server.address().port + '/';
      const answers = [];
      for (let pair = 0; pair < 50; pair++) {
        const [first] = await Promise.all([fetch(url).then((r) => r.json()), fetch(url).then((r) => r.json())]);
        answers.push(first);
      }
      process.stdout.write(JSON.stringify(answers.slice(-5)));
      process.exit(0);
    });
  `;
  const child = spawn(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=commonjs', '-e', source], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(stdout) as Array<{ req: boolean; res: boolean }>) : reject(new Error(`exit ${code}: ${stderr}`))));
  });
}

describe('the HTTP server makes requests and responses with Express\'s prototypes', () => {
  it('when two requests are in flight on the service\'s server, then both requests, and both responses, share one hidden class', async () => {
    const answers = await hiddenClassesOfRequestsInFlight();
    expect(answers).toEqual(Array.from({ length: 5 }, () => ({ req: true, res: true })));
  }, 60_000);

  it('when V8 is older than 13 and Node constructs a request and a response, then they are Express\'s from the start and still Node\'s messages', () => {
    const app = express();
    const classes = expressMessageClassesOf(app, NODE_22_V8);
    const Request = classes.IncomingMessage as typeof IncomingMessage;
    const Response = classes.ServerResponse as typeof ServerResponse;
    const req = new Request(undefined as never);
    const res = new Response(req);
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(res).toBeInstanceOf(ServerResponse);
    expect(typeof (res as unknown as { json: unknown }).json).toBe('function');
    expect(res.statusCode).toBe(200);
  });

  it('when V8 is 13 or later, then Node keeps its own classes and Express sets the prototypes', () => {
    expect(expressMessageClassesOf(express(), NODE_24_V8)).toEqual({});
  });
});
