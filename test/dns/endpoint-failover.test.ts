import { describe, expect, it } from 'vitest';
import { createEndpointFailover } from '../../src/dns/endpoint-failover.js';

describe('createEndpointFailover', () => {
  it('starts at the first endpoint and stays there while nothing fails', () => {
    const failover = createEndpointFailover(3);
    expect(failover.current()).toBe(0);
    expect(failover.current()).toBe(0);
  });

  it('moves on once per failure of the current endpoint, wrapping around', () => {
    const failover = createEndpointFailover(2);
    failover.failed(0);
    expect(failover.current()).toBe(1);
    failover.failed(1);
    expect(failover.current()).toBe(0);
  });

  it('ignores late reports about an endpoint it has already left', () => {
    const failover = createEndpointFailover(3);
    failover.failed(0);
    failover.failed(0);
    failover.failed(0);
    expect(failover.current()).toBe(1);
  });

  it('refuses to be built without endpoints', () => {
    expect(() => createEndpointFailover(0)).toThrow(/at least one endpoint/);
  });
});
