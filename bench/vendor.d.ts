/** The parts of two untyped devDependencies the benchmark uses. */

declare module 'dnsbl' {
  export interface DnsblOptions {
    servers?: string | string[];
    timeout?: number;
    concurrency?: number;
    includeTxt?: boolean;
  }
  export interface DnsblBatchItem {
    address: string;
    blacklist: string;
    listed: boolean;
  }
  export function lookup(
    address: string,
    blacklist: string,
    options?: DnsblOptions,
  ): Promise<boolean>;
  export function batch(
    addresses: string | string[],
    blacklists: string | string[],
    options?: DnsblOptions,
  ): Promise<DnsblBatchItem[]>;
}

declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }
  export interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
  }
  export interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }
  export default function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
}
