import { describe, expect, it } from 'vitest';
import { ApiError, type ErrorCode, errorRecords } from '../../src/http/index.js';

/** The error table (src/http/errors.ts): what every answer of a code carries. */

const codes = Object.keys(errorRecords) as ErrorCode[];
const tooMany = codes.filter((code) => errorRecords[code].status === 429);

describe('the error table', () => {
  it('has 429 codes to check', () => {
    expect(tooMany).toEqual(['quota_exceeded', 'watch_limit', 'email_limit', 'test_pending']);
  });

  it.each(tooMany)('answers %s with Retry-After, given or not', (code) => {
    const seconds = Number(new ApiError(code, 'refused').headers['Retry-After']);
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(86_400);
    // A figure the refusal knows wins.
    expect(new ApiError(code, 'refused', { 'Retry-After': '7' }).headers['Retry-After']).toBe('7');
  });

  it('gives a daily count’s refusal the seconds to the next UTC midnight', () => {
    const seconds = Number(new ApiError('email_limit', 'used').headers['Retry-After']);
    const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    expect(Math.abs(seconds - (midnight - Date.now()) / 1000)).toBeLessThan(2);
  });
});
