export * from './auth.js';
export * from './catalog.js';
export * from './ops.js';
