import { describe, expect, it } from 'vitest';
import { defaultReportsUrl, parseReportsUrl } from '../../../src/reports/index.js';

describe('REPORTS_URL', () => {
  it.each([
    ['memory:', { kind: 'memory' }],
    ['sqlite:data/reports.db', { kind: 'sqlite', path: 'data/reports.db' }],
    [
      'sqlite:/var/lib/reputation/reports.db',
      { kind: 'sqlite', path: '/var/lib/reputation/reports.db' },
    ],
    [
      'postgres://reports:s3cret@db.internal:5432/reports',
      { kind: 'postgres', url: 'postgres://reports:s3cret@db.internal:5432/reports' },
    ],
    [
      'postgresql://db.internal/reports?sslmode=require',
      { kind: 'postgres', url: 'postgresql://db.internal/reports?sslmode=require' },
    ],
  ])('reads %s', (url, location) => {
    expect(parseReportsUrl(url)).toEqual(location);
  });

  it.each([
    ['', /^sqlite:PATH, postgres:\/\/.* or memory:/],
    ['redis://127.0.0.1:6379/0', /^sqlite:PATH, postgres:\/\/.* or memory:/],
    ['sqlite:', /sqlite:PATH takes a file path/],
    ['sqlite://data/reports.db', /sqlite:PATH takes a file path/],
    ['postgres:///reports', /needs a host/],
    ['postgres://user:pw@db.internal', /the path of a postgres:\/\/ URL is the database/],
    ['postgres://user:pw@db.internal/a/b', /the path of a postgres:\/\/ URL is the database/],
    ['postgres://user:pw@db.internal/reports#x', /takes no fragment/],
    ['postgres://user:pw@db.internal:99999/reports', /not a valid postgres:\/\/ URL/],
  ])('refuses %j, saying what it takes and never repeating the value', (url, reason) => {
    let message = '';
    try {
      parseReportsUrl(url);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(reason);
    expect(message).not.toContain('pw');
  });

  it.each([
    ['sqlite:data/reputation.db', 'sqlite:data/reports.db'],
    ['sqlite:/var/lib/reputation/state.db', 'sqlite:/var/lib/reputation/reports.db'],
    ['sqlite:state.db', 'sqlite:reports.db'],
    ['memory:', 'memory:'],
    ['redis://127.0.0.1:6379/0', 'sqlite:data/reports.db'],
  ])('defaults beside STORE_URL=%s to %s', (storeUrl, reportsUrl) => {
    expect(defaultReportsUrl(storeUrl)).toBe(reportsUrl);
  });
});
