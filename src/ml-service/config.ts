/**
 * The ML service's configuration, parsed and validated once at start (the station's own is src/config.ts).
 *
 *   PORT                 default 8090
 *   HOST                 default 0.0.0.0
 *   ML_SERVICE_API_KEY   required, at least 16 characters: callers send it as X-API-Key
 *   DATA_DIR             optional: artifacts are also cached on disk under DATA_DIR/artifacts
 *   LOG_LEVEL            default info
 */
import { resolve } from 'node:path';
import { ConfigError } from '../config.js';

export interface MlServiceConfig {
  port: number;
  host: string;
  apiKey: string;
  dataDir: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

export function loadMlServiceConfig(env: Env = process.env, cwd = process.cwd()): MlServiceConfig {
  const rawPort = text(env, 'PORT');
  const port = rawPort === null ? 8090 : Number(rawPort);
  if (rawPort !== null && (!/^\d+$/.test(rawPort) || port > 65535)) throw new ConfigError('PORT', 'an integer from 0 to 65535', rawPort);
  const apiKey = text(env, 'ML_SERVICE_API_KEY');
  if (apiKey === null || apiKey.length < 16) {
    throw new ConfigError('ML_SERVICE_API_KEY', 'a key of at least 16 characters (required)', apiKey === null ? '' : '<hidden>');
  }
  const logLevel = (text(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new ConfigError('LOG_LEVEL', `one of ${LOG_LEVELS.join(', ')}`, logLevel);
  const dataDir = text(env, 'DATA_DIR');
  return {
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    apiKey,
    dataDir: dataDir === null ? null : resolve(cwd, dataDir),
    logLevel: logLevel as MlServiceConfig['logLevel'],
  };
}
