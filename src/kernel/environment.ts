/**
 * Where a request, a key, an order or an event lives: `live` (production data, real money) or `test` (the
 * sandbox: `/sandbox/v1`, test keys, the sandbox payment processor). Every module that keeps environments
 * apart uses this one type (contract.md, "Sandbox base address").
 */
export type Environment = 'live' | 'test';
