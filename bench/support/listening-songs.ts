/**
 * The listening bench's songs: six genre families, a fixed seed each, and original lyrics written for the
 * bench (plain, grammatical lines in everyday words, so a recogniser trained on read speech has a fair
 * chance and espeak-ng reads them cleanly). Each song's words differ from the next song's, which is the
 * distractor vocabulary of its closed-set test (bench/listening.ts).
 */
import { emptyAudioModel } from '../../src/engine/compose/audio-model.js';
import { generateTrack } from '../../src/engine/music/pipeline.js';
import type { MusicContext, TrackLyrics } from '../../src/engine/types.js';
import { tokens } from './recognise.js';
import { FAMILY_CONTEXTS } from './mix-fixtures.js';

export interface ListeningSong {
  name: string;
  family: string;
  context: MusicContext;
  seed: number;
  lyrics: TrackLyrics;
}

const song = (verse1: string[], chorus: string[], verse2: string[]): TrackLyrics => ({
  language: 'en',
  order: ['verse_1', 'chorus', 'verse_2', 'chorus'],
  sections: { verse_1: verse1.join('\n'), chorus: chorus.join('\n'), verse_2: verse2.join('\n') },
});

const LYRICS: Record<string, TrackLyrics> = {
  pop: song(
    ['I saw you dancing by the door', 'The music made the whole room shine', 'We laughed until the lights went down', 'And nothing else was on my mind'],
    ['Take my hand and let us run', 'Every heart is beating fast', 'We can dance until the sun', 'Make this summer night the last'],
    ['Your jacket hanging on a chair', 'A yellow taxi waiting there', 'I never want to say goodbye', 'So hold me close and touch the sky'],
  ),
  rock: song(
    ['The engine roars along the road', 'We drive all night without a map', 'The desert wind is cold and loud', 'My brother sleeping in the back'],
    ['Break the chains and feel the fire', 'Burn the bridges one by one', 'We were born to climb up higher', 'Stand together we are strong'],
    ['The radio is playing loud', 'A thunder storm is coming in', 'We shout our names into the crowd', 'And let the wild parade begin'],
  ),
  electronic: song(
    ['Neon signs are glowing blue', 'The city never goes to sleep', 'I see the stars reflected too', 'In windows shining on the street'],
    ['Feel the rhythm in the dark', 'Move your body to the beat', 'Every pulse is like a spark', 'Dancing on electric feet'],
    ['The robot voices call my name', 'A silver train is passing by', 'We ride the future in a game', 'And lasers paint the purple sky'],
  ),
  jazz: song(
    ['The coffee gets cold on the table', 'You smile across the smoky bar', 'The piano plays a gentle story', 'I wonder who you really are'],
    ['Sweet as honey in the evening', 'Soft as velvet in the rain', 'Tell me darling you are staying', 'Call my name and call again'],
    ['The saxophone is feeling lonely', 'The waiter brings another glass', 'We talk about the good old summer', 'And hope the night will never pass'],
  ),
  lofi: song(
    ['Books are sleeping on the floor', 'The kettle whistles in the kitchen', 'A sleepy cat beside the door', 'The garden rain is gently falling'],
    ['Take it slow and breathe it in', 'Sunday morning in my room', 'Close your eyes and let it begin', 'Flowers open in the gloom'],
    ['My headphones playing something warm', 'A pencil drawing on the page', 'We wait together through the storm', 'And watch the autumn colours change'],
  ),
  folk: song(
    ['My father built this wooden house', 'Beside the river and the mill', 'My mother sang to every child', 'Her voice is in the valley still'],
    ['Carry me home across the water', 'Carry me over the green hill', 'I am my mother and my father', 'Walking the road that I walk still'],
    ['The farmer plants the winter wheat', 'The horses pull the heavy cart', 'The village gathers in the street', 'To sing the songs we know by heart'],
  ),
};

const SEEDS: Record<string, number> = { pop: 311, rock: 412, electronic: 513, jazz: 614, lofi: 715, folk: 816 };

export const LISTENING_SONGS: ListeningSong[] = FAMILY_CONTEXTS.filter(([family]) => family in LYRICS).map(([family, context]) => ({
  name: `${family}-${SEEDS[family]}`,
  family,
  context,
  seed: SEEDS[family],
  lyrics: LYRICS[family],
}));

/** The song rendered as the listening benches hear it: `generateTrack` with its lyrics, no trained model. */
export async function renderListeningSong(song: ListeningSong, durationSec: number) {
  const track = await generateTrack({
    context: song.context,
    seed: song.seed,
    maxDurationSec: durationSec,
    quality: '128kbps',
    model: emptyAudioModel(),
    modelVersion: 'listening',
    lyrics: song.lyrics,
  });
  if (!track.vocals) throw new Error(`${song.name}: no vocals rendered`);
  return { track, stem: track.vocals.stem };
}

/** The closed-set vocabulary of song `index`: the words it sang (`own`) plus every word of the next song. */
export function closedVocabulary(index: number, own: ReadonlySet<string>): Set<string> {
  const other = LISTENING_SONGS[(index + 1) % LISTENING_SONGS.length];
  return new Set([...own, ...Object.values(other.lyrics.sections).flatMap((t) => tokens(t))]);
}
