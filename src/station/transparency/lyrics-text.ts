/** The words of an AI track's lyrics, read from module F's record for the transparency panel. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { lyricGenerations } from '../../infra/db/schema/index.js';
import type { SungLyrics } from './transparency.service.js';

/** Sections in the order they are sung (a chorus sung three times is listed three times); null if none. */
export async function sungLyrics(db: Db, lyricId: string): Promise<SungLyrics | null> {
  const [row] = await db
    .select({ language: lyricGenerations.language, structure: lyricGenerations.structure, safety: lyricGenerations.safety })
    .from(lyricGenerations)
    .where(eq(lyricGenerations.id, lyricId))
    .limit(1);
  if (!row?.structure) return null;
  const structure = row.structure;
  const order = Array.isArray(row.safety.order) ? row.safety.order.map(String) : Object.keys(structure);
  const sections = order.filter((name) => typeof structure[name] === 'string').map((name) => ({ name, text: structure[name] }));
  return sections.length > 0 ? { language: row.language, sections } : null;
}
