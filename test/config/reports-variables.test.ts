import { describe, expect, it } from 'vitest';
import { readConfig, reportsLocation } from '../../src/node/config.js';
import { readWorkerConfig } from '../../src/workers/config.js';

/**
 * The reports tool's variables (docs/reports.md, docs/configuration.md): their defaults, where the
 * reports live when REPORTS_URL is unset, and each bad value or missing companion refused with a
 * message that names the variable.
 */

describe('the reports variables', () => {
  it('default to no address, 10 MB, a year, 50 watches, and the doors shut', () => {
    const { reports } = readConfig({});
    expect(reports).toEqual({
      maxBytes: 10 * 1024 * 1024,
      retentionDays: 365,
      autoWatchMax: 50,
      smtpHost: '0.0.0.0',
      imapIntervalMs: 300_000,
      imapDone: 'Processed',
    });
  });

  it('read REPORTS_ADDRESS as the mailbox whose subaddresses the inboxes get', () => {
    expect(readConfig({ REPORTS_ADDRESS: 'dmarc@Reports.Example.ORG' }).reports.mailbox).toEqual({
      base: 'dmarc',
      domain: 'reports.example.org',
    });
    // On Workers too: Email Routing will route by it.
    const worker = readWorkerConfig({
      DOH_URL: 'https://cloudflare-dns.com/dns-query',
      REPORTS_ADDRESS: 'dmarc@reports.example.org',
    });
    expect(worker.reports.mailbox?.domain).toBe('reports.example.org');
  });

  it.each([
    [{}, { kind: 'sqlite', path: 'data/reports.db' }],
    [
      { STORE_URL: 'sqlite:/var/lib/rep/reputation.db' },
      { kind: 'sqlite', path: '/var/lib/rep/reports.db' },
    ],
    [{ STORE_URL: 'memory:' }, { kind: 'memory' }],
    [{ STORE_URL: 'redis://cache.internal:6379/0' }, { kind: 'sqlite', path: 'data/reports.db' }],
    [
      { REPORTS_URL: 'postgres://rep@db.internal/reports' },
      { kind: 'postgres', url: 'postgres://rep@db.internal/reports' },
    ],
  ])('keep the reports beside the service’s data unless REPORTS_URL says (%j)', (env, location) => {
    expect(reportsLocation(readConfig(env))).toEqual(location);
  });

  it.each([
    [{ REPORTS_ADDRESS: 'dmarc+x@reports.example.org' }, 'REPORTS_ADDRESS'],
    [{ REPORTS_ADDRESS: 'not an address' }, 'REPORTS_ADDRESS'],
    [{ REPORTS_MAX_BYTES: '1000' }, 'REPORTS_MAX_BYTES'],
    [{ REPORTS_RETENTION_DAYS: '0' }, 'REPORTS_RETENTION_DAYS'],
    [{ REPORTS_URL: 'mysql://db/reports' }, 'REPORTS_URL'],
    [{ REPORTS_SMTP_PORT: '2525' }, 'REPORTS_SMTP_PORT'],
    [{ REPORTS_IMAP_URL: 'imaps://u:p@imap.example.org/INBOX' }, 'REPORTS_IMAP_URL'],
    [{ REPORTS_IMAP_URL: 'https://imap.example.org/' }, 'REPORTS_IMAP_URL'],
    [{ REPORTS_TLS_CERT: '/etc/ssl/cert.pem' }, 'REPORTS_TLS_KEY'],
    [{ REPORTS_TLS_KEY: '/etc/ssl/key.pem' }, 'REPORTS_TLS_CERT'],
    [{ WORKERS: '2', REPORTS_URL: 'memory:' }, 'REPORTS_URL'],
  ])('refuse %j, naming %s', (env, name) => {
    expect(() => readConfig(env)).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it('never repeat a REPORTS_URL that may carry a password', () => {
    const read = () => readConfig({ REPORTS_URL: 'postgres://u:secret@/x' });
    expect(read).toThrow(/REPORTS_URL/);
    expect(read).not.toThrow(/secret/);
  });
});
