import { bytesText, type ReadLimits, reportTooLarge } from './errors.js';

/**
 * What is left of the bounds while one body is read: the bytes its gzip and zip contents expand
 * to (counted as the inflater hands them out, so a bomb stops at the bound, whatever its headers
 * claim) and the records of its reports. One budget per body: a message's attachments and a
 * zip's entries share it.
 */
export class ReadBudget {
  private expanded = 0;
  private records = 0;

  constructor(readonly limits: ReadLimits) {}

  /** Counts `bytes` more of expanded content; refuses once the total passes `maxBytes`. */
  expand(bytes: number): void {
    this.expanded += bytes;
    if (this.expanded > this.limits.maxBytes) {
      throw reportTooLarge(`the report expands past ${bytesText(this.limits.maxBytes)}`);
    }
  }

  /** Counts `count` more records; refuses once the total passes `maxRecords`. */
  countRecords(count: number): void {
    this.records += count;
    if (this.records > this.limits.maxRecords) {
      throw reportTooLarge(
        `the report holds more than ${this.limits.maxRecords.toLocaleString('en-US')} records`,
      );
    }
  }
}
