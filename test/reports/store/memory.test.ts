import { createMemoryReportStore } from '../../../src/reports/index.js';
import { describeReportStoreContract } from './contract.js';

describeReportStoreContract('memory', async () => createMemoryReportStore());
