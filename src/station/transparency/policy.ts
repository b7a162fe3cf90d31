/**
 * The station's published statements about its AI: one source for the transparency API and the public
 * policy page at /policy/ai, so the two can never say different things.
 */
import { TRAINED_ALGORITHMIC_MEDIA } from '../../engine/audio/id3.js';
import { STATION_NAME } from '../../kernel/station-name.js';

export const POLICY_PATH = '/policy/ai';
export const POLICY_VERSION = '1.0';

export const SYSTEM_DESCRIPTION =
  `${STATION_NAME} is an internet radio that plays tracks from the platform's own catalog and original tracks composed by its own AI ` +
  'in one continuous stream. The AI composes music (and, when enabled, lyrics) for the live context of the station: genre, mood, ' +
  'lifestyle and tempo. Every AI track is labelled as such to listeners and recorded in an append-only registry before it is played.';

export const TRAINING_DATA_POLICY = {
  audio: 'Only masters owned by the platform (platform-owned artists) are used to train the music and style models.',
  lyrics: "Only lyrics written by the platform's own songwriters are used to train the lyrics model.",
  third_party:
    'No third-party recordings, lyrics or scraped content are used for training; generated tracks are checked for similarity to existing works before they can play.',
  reproducibility: 'Every model version records the sha256 hash of the exact dataset it was trained on; the hash is kept with every track in the registry.',
};

export const LEGAL_COMPLIANCE = {
  ai_labelling:
    `Every AI track is disclosed as AI-generated in the player and the now-playing data, and its MP3 carries an ID3 label with the IPTC digital source type ` +
    `trainedAlgorithmicMedia (${TRAINED_ALGORITHMIC_MEDIA}), the station, the model version and the registry id.`,
  registry:
    'Every AI track is recorded before playback in an append-only registry enforced by the database (updates of recorded fields, deletes and truncation are refused); ' +
    'each record is hash-chained to the previous one, so any alteration is detectable, and the chain can be verified and exported for audit.',
  radio_only: 'AI tracks are radio-only: they are not sold, licensed or offered for download.',
  safety:
    'Generated audio and lyrics pass a safety filter (explicit content, similarity to existing works) before playback; flagged tracks are withheld and can be queued for human review.',
  transparency: 'For every AI track, listeners can see the model version, the context that shaped it and the catalog tracks that most influenced its style.',
};

export function trainingDataStatement(datasetHash: string): string {
  return (
    "This track's model was trained only on masters owned by the platform and on lyrics written by the platform's own songwriters " +
    `(training dataset ${datasetHash}). No third-party content was used.`
  );
}

export function policyDocument(publicBaseUrl: string) {
  return {
    title: `${STATION_NAME} AI music policy`,
    version: POLICY_VERSION,
    url: `${publicBaseUrl}${POLICY_PATH}`,
    system_description: SYSTEM_DESCRIPTION,
    training_data_policy: TRAINING_DATA_POLICY,
    legal_compliance: LEGAL_COMPLIANCE,
    transparency_api: {
      station: '/station/v1/transparency/station',
      track: '/station/v1/transparency/{station_track_id}',
    },
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function policyHtml(publicBaseUrl: string): string {
  const doc = policyDocument(publicBaseUrl);
  const list = (entries: Record<string, string>) =>
    `<ul>${Object.entries(entries)
      .map(([k, v]) => `<li><strong>${escapeHtml(k.replaceAll('_', ' '))}</strong>: ${escapeHtml(v)}</li>`)
      .join('')}</ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title></head>
<body><main>
<h1>${escapeHtml(doc.title)}</h1>
<p>Version ${escapeHtml(doc.version)}</p>
<h2>What the station is</h2><p>${escapeHtml(doc.system_description)}</p>
<h2>Training data</h2>${list(doc.training_data_policy)}
<h2>Compliance</h2>${list(doc.legal_compliance)}
<p>Machine-readable: request this page with <code>Accept: application/json</code>.</p>
</main></body></html>
`;
}
