import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * docs/grafana-dashboard.json and the alert rules of docs/operations.md name only metrics the
 * service exports: a renamed metric breaks this test before it breaks an operator's dashboard.
 */

const docs = new URL('../../docs/', import.meta.url);
const dashboard = JSON.parse(readFileSync(new URL('grafana-dashboard.json', docs), 'utf8')) as {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};
const operations = readFileSync(new URL('operations.md', docs), 'utf8');
const alertRules = [...operations.matchAll(/```yaml\n([\s\S]*?)```/g)].map((block) => block[1]!);

/** The metric names a PromQL expression reads (the service's families and Node's). */
function metricNames(expression: string): string[] {
  return [...expression.matchAll(/\b(?:reputation|http|process|nodejs)_[a-z0-9_]+\b/g)].map(
    ([name]) => name,
  );
}

let service: TestService;
let families: ReadonlyMap<string, string>;
beforeAll(async () => {
  service = await startTestService();
  const response = await fetch(service.rootUrl('/metrics'));
  families = parsePrometheusText(await response.text()).types;
});
afterAll(() => service.close());

/** A histogram's series are its family's name with `_bucket`, `_sum` or `_count`. */
function isExported(name: string): boolean {
  return families.has(name) || families.has(name.replace(/_(bucket|sum|count)$/, ''));
}

describe('the operator documents', () => {
  it('give the dashboard a query on every panel, each naming metrics', () => {
    expect(dashboard.panels.length).toBeGreaterThan(10);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets)
        expect(metricNames(target.expr), panel.title).not.toEqual([]);
    }
  });

  it('use in the dashboard only metrics the service exports', () => {
    const used = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((target) => metricNames(target.expr)),
    );
    expect(used.filter((name) => !isExported(name))).toEqual([]);
  });

  it('use in the alert rules only metrics the service exports, four rules at least', () => {
    expect(alertRules).toHaveLength(1);
    const rules = alertRules[0]!;
    expect(rules.match(/- alert: /g)?.length).toBeGreaterThanOrEqual(4);
    const used = metricNames(rules);
    for (const name of [
      'reputation_dnsbl_list_state',
      'reputation_store_errors_total',
      'reputation_checks_total',
      'reputation_watch_deliveries_total',
    ])
      expect(used).toContain(name);
    expect(used.filter((name) => !isExported(name))).toEqual([]);
  });
});
