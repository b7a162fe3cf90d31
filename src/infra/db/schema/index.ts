export * from './auth.js';
export * from './catalog.js';
export * from './ops.js';
export * from './station.js';
export * from './radio.js';
export * from './webhooks.js';
export * from './playout.js';
export * from './training.js';
