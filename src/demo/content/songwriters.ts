import type { DemoSongwriter } from './types.js';

/**
 * House songwriters. IPI numbers are invented and sit in the 99999xxxxxx range, which no society
 * issues, so they can never collide with a real rights holder.
 */
export const demoSongwriters: DemoSongwriter[] = [
  { slug: 'ada-kimura', name: 'Ada Kimura', ipi: '99999000101', artistSlug: 'quiet-radiator' },
  { slug: 'theo-brandt', name: 'Theo Brandt', ipi: '99999000102', artistSlug: 'quiet-radiator' },
  { slug: 'lena-voss', name: 'Lena Voss', ipi: '99999000201', artistSlug: 'neon-tidewater' },
  { slug: 'kasimir-oduya', name: 'Kasimir Oduya', ipi: '99999000202', artistSlug: 'neon-tidewater' },
  { slug: 'wren-hallett', name: 'Wren Hallett', ipi: '99999000301', artistSlug: 'juniper-ferry' },
  { slug: 'tomas-arriaga', name: 'Tomás Arriaga', ipi: '99999000302', artistSlug: 'juniper-ferry' },
  { slug: 'marisol-ortega', name: 'Marisol Ortega', ipi: '99999000401', artistSlug: 'marisol-velvet-hours' },
  { slug: 'june-okafor', name: 'June Okafor', ipi: '99999000402', artistSlug: 'marisol-velvet-hours' },
  { slug: 'ilse-marrow', name: 'Ilse Marrow', ipi: '99999000501', artistSlug: 'slow-orbit-society' },
  { slug: 'cal-ferris', name: 'Cal Ferris', ipi: '99999000502', artistSlug: 'slow-orbit-society' },
];
