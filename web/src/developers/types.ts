/** The API shapes the developer portal reads, from the client library's generated types. */
import type { Answer, BodyOf, ItemOf } from '../shared/api-types';

export type Me = Answer<'/v1/users/me', 'get'>;
export type DeveloperAccount = Answer<'/v1/developer/account', 'post'>;
export type ApiKey = ItemOf<'/v1/developer/keys'>;
export type CreatedKey = Answer<'/v1/developer/keys', 'post'>;
export type KeyInput = BodyOf<'/v1/developer/keys', 'post'>;
export type Usage = Answer<'/v1/developer/usage', 'get'>;
export type Webhook = ItemOf<'/v1/webhooks'>;
export type RegisteredWebhook = Answer<'/v1/webhooks', 'post'>;
export type WebhookInput = BodyOf<'/v1/webhooks', 'post'>;
export type WebhookEvent = WebhookInput['events'][number];
export type Delivery = ItemOf<'/v1/webhooks/{id}/deliveries'>;
export type OAuthApp = ItemOf<'/v1/developer/apps'>;
export type CreatedApp = Answer<'/v1/developer/apps', 'post'>;
export type AppInput = BodyOf<'/v1/developer/apps', 'post'>;
