import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'marisol-velvet-hours';

/** Marisol & the Velvet Hours, English set: late clubs, stairwells, streetcars and stubborn brass. */
export const marisolVelvetHoursLyrics: LyricsDocument[] = [
  song(
    { id: 'velvet-hour', title: 'Velvet Hour', songwriterId: 'june-okafor', artistId, language: 'en', mood: ['romantic', 'calm'], theme: 'late-night club' },
    {
      verse_1: [
        'The candles burn down to a honey glow',
        'the bartender is polishing the glass',
        'the drummer brushes something soft and slow',
        'the clock above the door forgets to ask',
      ],
      chorus: [
        'Stay with me through the velvet hour',
        'while the city lowers its voice',
        'the moon is a slow-opening flower',
        'and staying is the sweetest choice',
      ],
      verse_2: [
        'Your coat is hanging on my chair',
        'your laughter fills the empty room',
        'a little jasmine lingers in the air',
        'the bass is walking through the gloom',
      ],
      bridge: [
        'Don\'t watch the clock, don\'t watch the door',
        'the floor remembers what the night is for',
      ],
      outro: [
        'Velvet hour, velvet hour',
        'fold us softly, velvet hour',
      ],
    },
  ),
  song(
    { id: 'slow-dance-in-the-stairwell', title: 'Slow Dance in the Stairwell', songwriterId: 'june-okafor', artistId, language: 'en', mood: ['romantic', 'euphoric'], theme: 'first love' },
    {
      verse_1: [
        'The party\'s loud up on the seventh floor',
        'we slipped away the moment the record skipped',
        'you took my hand beside the fire door',
        'and hummed the melody we missed',
      ],
      chorus: [
        'Slow dance in the stairwell',
        'our echo on the stair',
        'the bulb above us flickers',
        'like it knows that we are there',
      ],
      verse_2: [
        'Your shoes are dangling from your hand',
        'the banister is cool and smooth',
        'we sway as if the whole thing had been planned',
        'and every step is finding its groove',
      ],
      bridge: [
        'Up or down, it doesn\'t matter',
        'we are somewhere in between',
      ],
      outro: [
        'The music stops, the hall lights come on',
        'we stay until the last note is gone',
      ],
    },
  ),
  song(
    { id: 'honey-and-thunder', title: 'Honey and Thunder', songwriterId: 'june-okafor', artistId, language: 'en', mood: ['romantic', 'defiant'], theme: 'passionate love' },
    {
      verse_1: [
        'You came in like a summer storm',
        'a rattle on the windowpane',
        'I had been quiet, I had been warm',
        'you taught my roof to sing again',
      ],
      chorus: [
        'Honey and thunder',
        'that is what you are',
        'sweet as a secret',
        'loud as a guitar',
      ],
      verse_2: [
        'My mama warned me of your kind',
        'the ones who talk with open hands',
        'but something opened in my mind',
        'and now my heart makes new demands',
      ],
      bridge: [
        'Rumble, rumble, low and deep',
        'there\'s a storm I mean to keep',
      ],
      outro: [
        'Honey on my lips and thunder in my chest',
        'you are the weather I love best',
      ],
    },
  ),
  song(
    { id: 'the-last-set', title: 'The Last Set', songwriterId: 'june-okafor', artistId, language: 'en', mood: ['melancholic', 'nostalgic'], theme: 'loss' },
    {
      verse_1: [
        'The Lantern Room is closing Friday night',
        'the landlord sold it to a chain hotel',
        'forty years of horns and amber light',
        'and every stool has secrets it could tell',
      ],
      chorus: [
        'So play the last set slow',
        'let the piano linger',
        'every chord we used to know',
        'slipping off my fingers',
      ],
      verse_2: [
        'Old Eli on the upright, eighty-one',
        'he taught me how to bend a note and wait',
        'we used to play until the night was done',
        'and wander humming through the iron gate',
      ],
      bridge: [
        'Buildings fall but music stays',
        'humming through the empty hallways',
      ],
      outro: [
        'Turn the stage lights down to one',
        'goodnight, Lantern, the set is done',
      ],
    },
  ),
  song(
    { id: 'streetcar-serenade', title: 'Streetcar Serenade', songwriterId: 'marisol-ortega', artistId, language: 'en', mood: ['romantic', 'hopeful'], theme: 'city crush' },
    {
      verse_1: [
        'The number seven rattles down the hill',
        'you board at Orchard in a yellow scarf',
        'I ride on past my stop, I always will',
        'to catch a glimpse of you, to hear you laugh',
      ],
      chorus: [
        'This is my streetcar serenade',
        'hummed between the bell and brake',
        'tomorrow I will find the nerve',
        'to ask your name before the curve',
      ],
      verse_2: [
        'You read a novel, underlining lines',
        'you tap your boot in time against the tracks',
        'I count the pages and the passing signs',
        'and never find the words to ask',
      ],
      bridge: [
        'Ding, ding, the city spins',
        'somewhere here a story begins',
      ],
      outro: [
        'Orchard Street, you\'re stepping down',
        'and turn to smile across the town',
      ],
    },
  ),
  song(
    { id: 'dont-dim-me', title: 'Don\'t Dim Me', songwriterId: 'june-okafor', artistId, language: 'en', mood: ['defiant', 'energetic'], theme: 'self-worth' },
    {
      verse_1: [
        'You liked me better when I sang in half',
        'a little softer, a little to the side',
        'you liked my smile but never liked my laugh',
        'you wanted me to shrink, and so I tried',
      ],
      chorus: [
        'Don\'t dim me, I was made to shine',
        'don\'t trim me, every branch is mine',
        'I\'m turning up the brass tonight',
        'I\'m standing in my own spotlight',
      ],
      verse_2: [
        'So here I am with horns behind my back',
        'a voice that fills the hall from wall to wall',
        'I pulled my colours from the attic stack',
        'and found I wasn\'t small at all',
      ],
      bridge: [
        'Louder, louder, let them stare',
        'I have got enough to spare',
      ],
      outro: [
        'Lights up, lights up, all the way',
        'this is who I am today',
      ],
    },
  ),
  song(
    { id: 'rain-check-waltz', title: 'Rain Check Waltz', songwriterId: 'marisol-ortega', artistId, language: 'en', mood: ['melancholic', 'calm'], theme: 'rain' },
    {
      verse_1: [
        'You called at seven, said you couldn\'t come',
        'the table set for two beside the sill',
        'I lit the candles anyway, just one',
        'the rain was drumming on the window still',
      ],
      chorus: [
        'So I\'ll take a rain check, darling',
        'one-two-three around the floor',
        'the storm outside is calling',
        'and I don\'t mind it anymore',
      ],
      verse_2: [
        'The neighbour\'s cat comes by to share the fish',
        'the radio is crooning something old',
        'I make myself a small and quiet wish',
        'and wrap a shawl against the cold',
      ],
      bridge: [
        'Some nights are made for company',
        'and some are only made for me',
      ],
      outro: [
        'One-two-three, the candle low',
        'the rain and I, we take it slow',
      ],
    },
  ),
  song(
    { id: 'brass-section-sunrise', title: 'Brass Section Sunrise', songwriterId: 'june-okafor', artistId, language: 'en', mood: ['euphoric', 'hopeful'], theme: 'friendship' },
    {
      verse_1: [
        'We played until the chairs were stacked',
        'the trumpet player snoring on his case',
        'the morning slipping through the cracks',
        'and painting gold on every tired face',
      ],
      chorus: [
        'Brass section sunrise',
        'bright horns across the sky',
        'we haven\'t slept a minute',
        'but no one wants to say goodbye',
      ],
      verse_2: [
        'We walked along the river in our suits',
        'the baker waved a loaf from his front door',
        'a busker joined us playing on his flute',
        'and suddenly the four of us were more',
      ],
      bridge: [
        'Every dawn deserves a band',
        'a melody to take its hand',
      ],
      outro: [
        'Blow it soft and blow it low',
        'the sun is up, it\'s time to go',
      ],
    },
  ),
];
