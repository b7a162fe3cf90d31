import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'slow-orbit-society';

/** Slow Orbit Society: the few whispered songs among the drones. Short forms, no bridges, lots of air. */
export const slowOrbitSocietyLyrics: LyricsDocument[] = [
  song(
    { id: 'low-earth-lullaby', title: 'Low Earth Lullaby', songwriterId: 'ilse-marrow', artistId, language: 'en', mood: ['calm', 'dreamy'], theme: 'stars' },
    {
      verse_1: [
        'Close the blinds on the orange street',
        'the fridge is humming in a minor key',
        'somewhere high a station spins',
        'ninety minutes round, and then begins',
      ],
      chorus: [
        'Low earth lullaby',
        'circling the sleeping sky',
        'every orbit brings you near',
        'rest now, the night is clear',
      ],
      verse_2: [
        'Astronauts are floating in their bags',
        'tethered to the wall like folded flags',
        'they watch the cities flicker out below',
        'a thousand candles set in snow',
      ],
      outro: [
        'Sixteen sunrises in a day',
        'sleep, and let them drift away',
      ],
    },
  ),
  song(
    { id: 'fog-index', title: 'Fog Index', songwriterId: 'cal-ferris', artistId, language: 'en', mood: ['calm', 'melancholic'], theme: 'fog' },
    {
      verse_1: [
        'The harbour disappears by eight',
        'a foghorn counting out the grey',
        'the ferry waits, the lorries wait',
        'the world is edited away',
      ],
      chorus: [
        'Soft white, soft white all around',
        'the hills have gone to bed',
        'the edges of the morning',
        'unravel like a thread',
      ],
      verse_2: [
        'A bicycle bell with no one riding',
        'footsteps wandering without a face',
        'the gulls are only voices, gliding',
        'through a room that has no place',
      ],
      outro: [
        'When it lifts, the world will be the same',
        'but I will know it by a softer name',
      ],
    },
  ),
  song(
    { id: 'driftwood-choir', title: 'Driftwood Choir', songwriterId: 'ilse-marrow', artistId, language: 'en', mood: ['calm', 'nostalgic'], theme: 'the sea' },
    {
      verse_1: [
        'Bleached and hollow on the winter sand',
        'the branches hum when the wind comes through',
        'I hold a splinter in my hand',
        'and hear the forest that it knew',
      ],
      chorus: [
        'Sing to me, driftwood choir',
        'of roots and rain and open sea',
        'the tide has tuned you like a lyre',
        'the wind is humming harmony',
      ],
      verse_2: [
        'Once you were a cedar on a cliff',
        'once you held a nest of speckled eggs',
        'now you float and dream and drift',
        'and gulls balance on their narrow legs',
      ],
      outro: [
        'Rest here, old wood, rest here',
        'the tide will come for you next year',
      ],
    },
  ),
  song(
    { id: 'sleep-cartography', title: 'Sleep Cartography', songwriterId: 'cal-ferris', artistId, language: 'en', mood: ['dreamy', 'calm'], theme: 'sleep' },
    {
      verse_1: [
        'Draw the border of the pillow',
        'mark the river of the sheet',
        'here the valley of the willow',
        'here the mountains of my feet',
      ],
      chorus: [
        'Sleep cartography',
        'mapping the slow country',
        'every dream a harbour town',
        'where the lamps are turning down',
      ],
      verse_2: [
        'Compass spinning like a feather',
        'north is anywhere you lie',
        'all the roads run into each other',
        'underneath a paper sky',
      ],
      outro: [
        'Fold the map and close your eyes',
        'the key is hidden where the moonlight lies',
      ],
    },
  ),
  song(
    { id: 'aurora-static', title: 'Aurora Static', songwriterId: 'ilse-marrow', artistId, language: 'en', mood: ['euphoric', 'dreamy'], theme: 'northern lights' },
    {
      verse_1: [
        'Green ribbons are unspooling over ice',
        'the radio is crackling with the sky',
        'we lie on woollen blankets, breath like lace',
        'and watch the solar weather drifting by',
      ],
      chorus: [
        'Aurora static whispering in green',
        'the loudest quiet I have ever seen',
        'a curtain rising on a frozen stage',
        'the sun is writing on a midnight page',
      ],
      verse_2: [
        'Particles that travelled all this way',
        'a hundred million miles to say hello',
        'they touch the air and burn in violet spray',
        'and vanish in the blue above the snow',
      ],
      outro: [
        'Turn the dial, the colours fade',
        'the sky forgets the light it made',
      ],
    },
  ),
  song(
    { id: 'glass-harbour', title: 'Glass Harbour', songwriterId: 'cal-ferris', artistId, language: 'en', mood: ['calm', 'melancholic'], theme: 'winter' },
    {
      verse_1: [
        'The bay has frozen flat and clear',
        'the boats are sleeping in their sheets',
        'a lonely skater circles here',
        'in slow ellipses, wide and neat',
      ],
      chorus: [
        'Glass harbour, hold your breath',
        'the sea is dreaming underneath',
        'every ripple put to rest',
        'every wave inside its sheath',
      ],
      verse_2: [
        'Beneath the ice the fish drift slow',
        'like thoughts I almost had',
        'the mooring ropes are stiff with snow',
        'the gulls have gone, and I am glad',
      ],
      outro: [
        'Spring will crack it, spring will come',
        'until then the water hums',
      ],
    },
  ),
  song(
    { id: 'moth-hour', title: 'Moth Hour', songwriterId: 'ilse-marrow', artistId, language: 'en', mood: ['dreamy', 'restless'], theme: 'summer nights' },
    {
      verse_1: [
        'Porch light buzzing in the July heat',
        'soft wings bumping on the bulb',
        'the crickets tapping out a beat',
        'the garden breathing, warm and dull',
      ],
      chorus: [
        'It\'s the moth hour, moth hour',
        'powder on my sleeve',
        'drawn to every glowing flower',
        'too restless now to leave',
      ],
      verse_2: [
        'I know the feeling, little friend',
        'of circling what you cannot hold',
        'of chasing brightness to the end',
        'of dancing in the almost-cold',
      ],
      outro: [
        'Switch it off and let them go',
        'back to the moon they used to know',
      ],
    },
  ),
  song(
    { id: 'pale-meridian', title: 'Pale Meridian', songwriterId: 'cal-ferris', artistId, language: 'en', mood: ['calm', 'hopeful'], theme: 'dawn' },
    {
      verse_1: [
        'A thin line where the night gives way',
        'the first birds testing out their throats',
        'the river wakes in pewter tones',
        'the mist is lifting in slow notes',
      ],
      chorus: [
        'Pale meridian',
        'cross me like a bridge',
        'carry me from sleeping',
        'to the waking edge',
      ],
      verse_2: [
        'Breathe in the colour of the hour',
        'breathe out the weight of yesterday',
        'the day unfolding like a letter',
        'with nothing that it has to say',
      ],
      outro: [
        'Pale meridian, thin and true',
        'I am beginning, and so are you',
      ],
    },
  ),
  song(
    { id: 'held-by-something-wide', title: 'Held by Something Wide', songwriterId: 'ilse-marrow', artistId, language: 'en', mood: ['calm', 'dreamy'], theme: 'summer' },
    {
      verse_1: [
        'Floating on my back in the lake at noon',
        'ears below the water, the world goes mute',
        'a dragonfly is stitching up the blue',
        'my heartbeat slow as a wooden flute',
      ],
      chorus: [
        'Weightless, I am weightless',
        'held by something wide',
        'nothing I must carry',
        'nothing left to hide',
      ],
      verse_2: [
        'Clouds are passing in a slow parade',
        'the pines along the shore lean in to see',
        'every knot of worry I had made',
        'is loosening and drifting off from me',
      ],
      outro: [
        'Swim back slowly to the shore',
        'lighter than I was before',
      ],
    },
  ),
  song(
    { id: 'tidal-lung', title: 'Tidal Lung', songwriterId: 'cal-ferris', artistId, language: 'en', mood: ['calm', 'sleepy'], theme: 'the sea' },
    {
      verse_1: [
        'In with the tide and out with the tide',
        'the shoreline breathing in its sleep',
        'the pebbles whisper side by side',
        'the ocean has a rhythm it will keep',
      ],
      chorus: [
        'Breathe slow like the sea',
        'four counts in, four counts out',
        'let the water carry me',
        'past the shallows of my doubt',
      ],
      verse_2: [
        'Seaweed swaying like a slow green hand',
        'a crab is writing letters in the sand',
        'the moon is pulling gently on the bay',
        'and pulling all my restlessness away',
      ],
      outro: [
        'In and out, the waves repeat',
        'the world is breathing at my feet',
      ],
    },
  ),
  song(
    { id: 'observatory-dome', title: 'Observatory Dome', songwriterId: 'cal-ferris', artistId, language: 'en', mood: ['calm', 'focused'], theme: 'stars' },
    {
      verse_1: [
        'The dome slides open with a patient groan',
        'a slice of night is waiting in the gap',
        'the old brass gears turn slowly on their own',
        'I mark the hour on a paper map',
      ],
      chorus: [
        'Quiet in the dome',
        'the cold glass tilting high',
        'light that left its distant home',
        'is landing in my eye',
      ],
      verse_2: [
        'A nebula unfolding, soft as smoke',
        'a pair of stars that circle in a dance',
        'the thermos steams beneath my woollen cloak',
        'the sky rewards a lingering glance',
      ],
      outro: [
        'Close the shutter, the east is pale',
        'the stars go home without a trail',
      ],
    },
  ),
];
