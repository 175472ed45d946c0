import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './services';

/**
 * A host name Chromium resolves to 127.0.0.1 (see LAUNCH_ARGS): the pages served under a name that
 * is neither localhost nor 127.0.0.1 over plain HTTP, as behind a TLS-terminating proxy or on a LAN.
 * Browsers and Swagger UI treat those two loopback names specially.
 */
export const PUBLIC_HOST = 'agent-fleet.test';

/** As STACK.md: these start as root with no network and make no background requests. */
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--host-resolver-rules=MAP ${PUBLIC_HOST} 127.0.0.1`,
];

const chromiumAvailable = () => process.env.TEST_CHROMIUM_AVAILABLE !== '0';

/** Skipped (reason printed by the global setup) only outside CI, where the setup fails instead. */
export function describeInBrowser(title: string, suite: () => void): void {
  (chromiumAvailable() ? describe : describe.skip)(title, suite);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS, timeout: 15_000 });
}

export interface ServedApp {
  port: number;
  /** `http://127.0.0.1:<port>`, or the same server under another host name. */
  origin(host?: string): string;
  /** Cuts every open connection (as a restart or a proxy would), leaving the server listening. */
  dropConnections(): void;
  close(): Promise<void>;
}

/** The app over real HTTP on a loopback port (an ephemeral one unless told). */
export async function serveOverHttp(app: Express, port = 0): Promise<ServedApp> {
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const listening = (server.address() as AddressInfo).port;
  return {
    port: listening,
    origin: (host = '127.0.0.1') => `http://${host}:${listening}`,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** What a page did that a self-contained page under a strict CSP must not do. */
export interface PageReport {
  /** Every request (blocked or not) whose origin is not the page's own. */
  foreignRequests: string[];
  /** `securitypolicyviolation` events, as `<directive> blocked <uri>`. */
  cspViolations: string[];
  consoleErrors: string[];
  pageErrors: string[];
}

/**
 * A page in `context` that records foreign requests, CSP violations, console errors and uncaught
 * errors. Requests to any other origin are aborted as well as recorded, so a page that tries to reach
 * a CDN fails here as it would offline.
 */
export async function watchedPage(context: BrowserContext, origin: string, stepTimeoutMs = 10_000): Promise<{ page: Page; report: PageReport }> {
  const report: PageReport = { foreignRequests: [], cspViolations: [], consoleErrors: [], pageErrors: [] };
  // A step that never happens fails with Playwright's own message, well inside jest's 30 s.
  context.setDefaultTimeout(stepTimeoutMs);
  // data: URLs are content the page already has, and blob: URLs carry their creator's origin.
  const isForeign = (url: URL) => url.protocol !== 'data:' && url.origin !== origin;
  await context.route(isForeign, (route) => route.abort('blockedbyclient'));
  context.on('request', (request) => {
    if (isForeign(new URL(request.url()))) report.foreignRequests.push(`${request.method()} ${request.url()}`);
  });
  await context.exposeBinding('reportCspViolation', (_source, violation: string) => {
    report.cspViolations.push(violation);
  });
  await context.addInitScript(() => {
    const target = window as unknown as { reportCspViolation(violation: string): void };
    document.addEventListener('securitypolicyviolation', (event) => {
      target.reportCspViolation(`${event.effectiveDirective} blocked ${event.blockedURI}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') report.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => report.pageErrors.push(error.message));
  return { page, report };
}

export const CLEAN_REPORT: PageReport = { foreignRequests: [], cspViolations: [], consoleErrors: [], pageErrors: [] };

/** A loopback port free at the time of asking, for a server whose own address must be known before it starts. */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
