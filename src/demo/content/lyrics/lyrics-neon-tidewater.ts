import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'neon-tidewater';

/** Neon Tidewater, part one: night drives, arcades and the summers that glowed. */
export const neonTidewaterLyrics: LyricsDocument[] = [
  song(
    { id: 'chrome-horizon', title: 'Chrome Horizon', songwriterId: 'lena-voss', artistId, language: 'en', mood: ['euphoric', 'restless'], theme: 'road trips' },
    {
      verse_1: [
        'Engine ticking in the parking light',
        'your sunglasses on at half past nine',
        'we trade the suburbs for the interstate tonight',
        'the painted lines are flashing out in time',
      ],
      chorus: [
        'Chase the chrome horizon',
        'keep the radio alive',
        'every mile a little brighter',
        'every heartbeat in overdrive',
      ],
      verse_2: [
        'Billboards glowing like a second moon',
        'a diner sign that blinks in pink and green',
        'you sing the hook a half a beat too soon',
        'and laughter fogs the windscreen',
      ],
      bridge: [
        'Nothing in the mirror but a fading town',
        'nothing on the dashboard slowing down',
      ],
      outro: [
        'Chrome horizon, take us in',
        'dawn is just a place we have not been',
      ],
    },
  ),
  song(
    { id: 'midnight-overpass', title: 'Midnight Overpass', songwriterId: 'kasimir-oduya', artistId, language: 'en', mood: ['restless', 'melancholic'], theme: 'city nights' },
    {
      verse_1: [
        'Standing on the overpass at twelve',
        'headlights pouring under like a stream',
        'I have been a stranger to myself',
        'counting taillights, counting every scheme',
      ],
      chorus: [
        'Midnight overpass',
        'a river made of amber light',
        'everything is moving fast',
        'and I am frozen here tonight',
      ],
      verse_2: [
        'Somewhere there is a window with your name',
        'a kettle singing in a kitchen that I knew',
        'the traffic never slows, it stays the same',
        'a thousand strangers going somewhere new',
      ],
      bridge: [
        'Maybe I will climb down, maybe I will drive',
        'maybe I will let the night decide',
      ],
      outro: [
        'Overpass, hold me one more hour',
        'until the streetlamps lose their power',
      ],
    },
  ),
  song(
    { id: 'arcade-heart', title: 'Arcade Heart', songwriterId: 'lena-voss', artistId, language: 'en', mood: ['euphoric', 'romantic'], theme: 'first love' },
    {
      verse_1: [
        'Tokens jingling in your denim pocket',
        'you beat my score on Galaxy Defence',
        'I wore your bracelet, you wore my locket',
        'and nothing else made any sense',
      ],
      chorus: [
        'Arcade heart, insert a coin',
        'blinking high score, come and join',
        'every level I replay',
        'still leads me back your way',
      ],
      verse_2: [
        'The glow of the screen along your face',
        'pinball lights in a silver parade',
        'we were the rulers of that place',
        'before the summer had to fade',
      ],
      bridge: [
        'Game over flashes, but we stay',
        'one more round and one more play',
      ],
      outro: [
        'Pixels in my memory',
        'player two, come back to me',
      ],
    },
  ),
  song(
    { id: 'run-the-grid', title: 'Run the Grid', songwriterId: 'kasimir-oduya', artistId, language: 'en', mood: ['energetic', 'defiant'], theme: 'working out' },
    {
      verse_1: [
        'Lace it tight and feel the floor',
        'the bassline kicking at the door',
        'breathe in deep and count to four',
        'you were built for something more',
      ],
      chorus: [
        'Run the grid, run the grid',
        'faster than you ever did',
        'every step a burning line',
        'every beat of it is mine',
      ],
      verse_2: [
        'Sweat like rain on a city street',
        'the treadmill spinning under feet',
        'the voice that doubts you cannot compete',
        'it falls behind at double beat',
      ],
      bridge: [
        'Push on, the skyline is near',
        'one more lap and the finish is here',
      ],
      outro: [
        'Cool it down, the lights turn blue',
        'the grid belongs to you',
      ],
    },
  ),
  song(
    { id: 'afterglow-boulevard', title: 'Afterglow Boulevard', songwriterId: 'lena-voss', artistId, language: 'en', mood: ['nostalgic', 'dreamy'], theme: 'youth' },
    {
      verse_1: [
        'Palm trees painted on a violet wall',
        'a roller rink that closed in ninety-four',
        'I hear the echo of your laughter call',
        'from somewhere past the boarded door',
      ],
      chorus: [
        'Walk me down Afterglow Boulevard',
        'where the neon never learned to sleep',
        'we were younger than the evening stars',
        'making promises too big to keep',
      ],
      verse_2: [
        'Cassette deck chewing up a song',
        'we fixed it with a pencil and a prayer',
        'the summer nights were twice as long',
        'and you had glitter in your hair',
      ],
      bridge: [
        'If I could rewind it like a tape',
        'I would pause it at your wave',
      ],
      outro: [
        'Streetlights flicker one by one',
        'the boulevard is chasing sun',
      ],
    },
  ),
  song(
    { id: 'beacon-on-the-ridge', title: 'Beacon on the Ridge', songwriterId: 'kasimir-oduya', artistId, language: 'en', mood: ['defiant', 'hopeful'], theme: 'friendship' },
    {
      verse_1: [
        'When the power lines come down',
        'and the screens go dark across the town',
        'I will climb the water tower',
        'light a flare and count the hours',
      ],
      chorus: [
        'Beacon burning on the ridge',
        'I am waiting by the bridge',
        'through the static, through the cold',
        'I will keep the light I hold',
      ],
      verse_2: [
        'We swore it back when we were young',
        'on bicycles with broken gears',
        'whatever song the world has sung',
        'we answer it across the years',
      ],
      bridge: [
        'Static, static, then a voice',
        'showing up was always our choice',
      ],
      outro: [
        'Smoke is rising, see it climb',
        'I will find you every time',
      ],
    },
  ),
  song(
    { id: 'hologram-summer', title: 'Hologram Summer', songwriterId: 'lena-voss', artistId, language: 'en', mood: ['dreamy', 'euphoric'], theme: 'summer' },
    {
      verse_1: [
        'Beach town glowing in a digital haze',
        'pastel waves that shimmer like a screen',
        'we spent the longest of the longest days',
        'inside a postcard coloured tangerine',
      ],
      chorus: [
        'Hologram summer shining through my hands',
        'I can almost touch it where the water lands',
        'a flickered smile, a pixel of the bay',
        'a summer made of light that would not stay',
      ],
      verse_2: [
        'Ice-cream vans with synthesizer bells',
        'a ferris wheel that turns in slow motion',
        'we buried secrets under broken shells',
        'and wrote our names across the ocean',
      ],
      bridge: [
        'Fade in, fade out, the tide is low',
        'a loop of light that will not go',
      ],
      outro: [
        'Power down the beach at night',
        'keep a copy of the light',
      ],
    },
  ),
];
