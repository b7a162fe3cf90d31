/**
 * A User-Agent reduced to the device class the audience report splits by. Only the class is stored with a
 * play (never the header: it identifies browsers far more finely than the report needs). Checked in this
 * order because the classes overlap: bots claim desktop browsers, TVs and tablets run Android, and an Android
 * phone says "Mobile" where an Android tablet does not.
 */
export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop', 'tv', 'bot', 'other', 'unknown'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

const RULES: [DeviceClass, RegExp][] = [
  ['bot', /[a-z]+bot\/|\bbot\b|crawler|spider|crawling|slurp|headlesschrome|lighthouse|facebookexternalhit/i],
  ['tv', /smart-?tv|googletv|appletv|apple tv|hbbtv|netcast|roku|crkey|\baft[a-z]\b|bravia|web0s|webos.*tv|tizen.*tv|playstation|xbox|nintendo/i],
  ['tablet', /ipad|tablet|kindle|silk\/|playbook|nexus (7|9|10)\b|sm-t\d|android(?!.*mobile)/i],
  ['mobile', /mobi|iphone|ipod|windows phone|blackberry|bb10|opera mini|iemobile|android.*mobile/i],
  ['desktop', /windows nt|macintosh|mac os x|x11|cros|linux x86_64|linux i686/i],
];

export function deviceClassOf(userAgent: string | undefined | null): DeviceClass {
  const ua = userAgent?.trim() ?? '';
  if (ua === '') return 'unknown';
  for (const [device, pattern] of RULES) if (pattern.test(ua)) return device;
  // A non-browser client (curl, an app's HTTP library): known to be something, not which device.
  return 'other';
}
