/** What global-setup.ts hands the suites inside workerd. */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The fixture service's base URL (fixture-control.ts). */
    fixtureControl: string;
  }
}

export {};
