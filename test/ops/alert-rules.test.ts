import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from '../support/harness';

interface Rule {
  alert: string;
  expr: string;
}

const RULES_FILE = path.resolve(__dirname, '..', '..', 'prometheus-alerts.yml');
const rules = (parse(readFileSync(RULES_FILE, 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((group) => group.rules);

/** Metric names in a PromQL expression: identifiers followed by `{`, `[` or a space, minus functions and keywords. */
function metricsIn(expr: string): string[] {
  const words = expr.match(/[a-z_][a-z0-9_]*(?=\s*[{[])/g) ?? [];
  return [...new Set(words)];
}

describe('alert rules', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
    await app.http.get('/agents').expect(200);
  });
  afterAll(async () => {
    await app.close();
  });

  it("when the rules file is read, then it encodes each of the specification's thresholds", () => {
    const thresholds = Object.fromEntries(rules.map((rule) => [rule.alert, rule.expr]));
    expect(thresholds.HighP99Latency).toMatch(/histogram_quantile\(0\.99,.*\) > 0\.5$/);
    expect(thresholds.High4xxRate).toMatch(/> 0\.05$/);
    expect(thresholds.High5xxRate).toMatch(/> 0\.01$/);
    expect(thresholds.RateLimitHits).toMatch(/\[1m\]\)\) > 100$/);
    expect(thresholds.OversizedRequests).toMatch(/le="10000000"/);
    expect(thresholds.SignInCallbackFailures).toMatch(/\[1h\]\)\) > 50$/);
    expect(thresholds.SignInStateValidationFailures).toMatch(/\[1h\]\)\) > 10$/);
    expect(thresholds.ProviderTokenRefreshFailures).toMatch(/\[1h\]\)\) > 20$/);
    expect(thresholds.InvalidProviderResponses).toMatch(/\[1h\]\)\) > 5$/);
    // The service's own dependencies: a database outage (503s) and a Redis skipped behind its circuit.
    expect(thresholds.DatabaseUnavailable).toMatch(/dependency_failures_total\{dependency="database"\}/);
    expect(thresholds.RedisCircuitOpen).toMatch(/dependency_up\{dependency="redis"\}\[5m\]\) == 0$/);
  });

  it('when /metrics is scraped, then every metric the rules use is exported', async () => {
    const exported = await app.scrapeMetrics();
    const names = new Set(rules.flatMap((rule) => metricsIn(rule.expr)).map((name) => name.replace(/_(bucket|count|sum)$/, '')));
    expect(names.size).toBeGreaterThanOrEqual(8);
    for (const name of names) expect(exported).toMatch(new RegExp(`^# TYPE ${name} (counter|histogram|gauge)$`, 'm'));
  });
});
