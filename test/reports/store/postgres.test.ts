import { beforeAll } from 'vitest';
import { openPostgresReportStore } from '../../../src/node/reports/postgres-report-store.js';
import { rollupTables } from '../../../src/reports/index.js';
import { freshPostgresUrl, inspectPostgres } from '../../support/postgres.js';
import { describeReportStoreContract } from './contract.js';

/**
 * The contract on a real PostgreSQL (the run's server, a database of this suite's own), each test
 * starting from empty tables.
 */

let url: string;
beforeAll(async () => {
  url = await freshPostgresUrl();
});

describeReportStoreContract('PostgreSQL', async () => {
  const store = await openPostgresReportStore(url, { maxConnections: 4 });
  const admin = inspectPostgres(url);
  const rollups = Object.values(rollupTables).map(({ table }) => table);
  await admin.unsafe(`TRUNCATE ${['report_inboxes', 'reports', ...rollups].join(', ')}`);
  await admin.end();
  return store;
});
