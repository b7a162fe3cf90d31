/**
 * Webhook secrets at rest: the shared SecretBox (src/infra/secret-box.ts) under the 'webhook-secrets' key of
 * DATA_DIR/keys, with the webhook id as the context. The purpose string is the one the secrets were first
 * sealed with, so existing rows still open.
 */
import { SecretBox as SharedSecretBox } from '../../infra/secret-box.js';

export { SecretBoxError } from '../../infra/secret-box.js';

export class SecretBox extends SharedSecretBox {
  constructor(keyMaterial: Buffer) {
    super(keyMaterial, { purpose: 'webhook secrets', keyFile: 'webhook-secrets' });
  }
}
