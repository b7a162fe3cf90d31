/**
 * Picks the TensorFlow.js backend once per process. tfjs-node does not install on our servers, so the fast
 * path is the WebAssembly backend (SIMD, single thread); if its .wasm binary cannot be loaded we fall back to
 * the pure-JS cpu backend, which is slower but always present. The choice is reported in training metrics.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

export type TfBackendName = 'wasm' | 'cpu';

let chosen: Promise<TfBackendName> | undefined;

export function ensureTfBackend(): Promise<TfBackendName> {
  chosen ??= selectBackend();
  return chosen;
}

async function selectBackend(): Promise<TfBackendName> {
  try {
    if (await tf.setBackend('wasm')) {
      await tf.ready();
      return 'wasm';
    }
  } catch {
    // fall through to cpu: a missing or blocked .wasm file must not stop training
  }
  await tf.setBackend('cpu');
  await tf.ready();
  return 'cpu';
}

export { tf };
