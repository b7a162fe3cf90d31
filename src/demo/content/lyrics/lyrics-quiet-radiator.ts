import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'quiet-radiator';

/** Quiet Radiator, part one: small rooms, late desks, slow weather. */
export const quietRadiatorLyrics: LyricsDocument[] = [
  song(
    { id: 'margin-notes', title: 'Margin Notes', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['calm', 'focused'], theme: 'late-night studying' },
    {
      verse_1: [
        'Desk lamp leaning like a tired friend',
        'yellow ink is soaking through the page',
        'the kettle clicks and sighs again',
        'I count the hours I have left to save',
      ],
      chorus: [
        'Margin notes in a sleepy hand',
        'arrows pointing where the answers land',
        'the radiator hums a steady tune',
        'I will understand it soon',
      ],
      verse_2: [
        'Index cards in a rubber band',
        'half a sandwich on the windowsill',
        'the neighbour upstairs drops a pan',
        'and then the building settles still',
      ],
      bridge: [
        'Three in the morning is a quiet town',
        'every formula is slowing down',
      ],
      outro: [
        'Close the book and leave the lamp on low',
        'tomorrow I will know what I know',
      ],
    },
  ),
  song(
    { id: 'rain-on-the-bus-window', title: 'Rain on the Bus Window', songwriterId: 'theo-brandt', artistId, language: 'en', mood: ['melancholic', 'calm'], theme: 'rain' },
    {
      verse_1: [
        'Number nine takes the long way round',
        'fogged-up glass and a heater sound',
        'I trace a door with a fingertip',
        'and watch its tiny hinges drip',
      ],
      chorus: [
        'Rain on the bus window',
        'streetlights running slow',
        'everybody riding home',
        'nobody quite alone',
      ],
      verse_2: [
        'An old man hums beneath his breath',
        'a schoolgirl dozes on her coat',
        'the driver taps along to jazz',
        'a trumpet on one long gold note',
      ],
      bridge: [
        'If the route ran on forever',
        'I would never mind the weather',
      ],
      outro: [
        'Ring the bell at Alder Street',
        'step into the hiss of feet',
      ],
    },
  ),
  song(
    { id: 'two-mugs', title: 'Two Mugs', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['hopeful', 'warm'], theme: 'friendship' },
    {
      verse_1: [
        'You left your scarf across my chair',
        'a paperback with coffee rings',
        'we argued over who was there',
        'the night we fixed the sofa springs',
      ],
      chorus: [
        'Two mugs in the sink again',
        'proof that I still have a friend',
        'no speeches and no big parade',
        'just the tea the two of us made',
      ],
      verse_2: [
        'When the job fell through in May',
        'you turned up with a box of plums',
        'you did not ask, you did not say',
        'you tapped a rhythm with your thumbs',
      ],
      bridge: [
        'Some people stay like a lamp left on',
        'long after the other guests have gone',
      ],
      outro: [
        'Rinse them out and leave them there',
        'same time next week, the same old chair',
      ],
    },
  ),
  song(
    { id: 'laundromat-saturday', title: 'Laundromat Saturday', songwriterId: 'theo-brandt', artistId, language: 'en', mood: ['calm', 'nostalgic'], theme: 'city weekends' },
    {
      verse_1: [
        'Quarters warm inside my palm',
        'dryer number six is turning slow',
        'the whole room smells of soap and calm',
        'and Sunday still has a day to go',
      ],
      chorus: [
        'Round and round the tumbling socks',
        'round and round the wall clock walks',
        'nothing urgent, nothing wrong',
        'a Saturday can be this long',
      ],
      verse_2: [
        'A boy is reading comic books',
        'his mother folds a wedding dress',
        'we trade those quiet knowing looks',
        'of strangers sharing idleness',
      ],
      bridge: [
        'Static crackles on a sweater sleeve',
        'I take my time, I am slow to leave',
      ],
      outro: [
        'Basket on my hip, the sidewalk gleams',
        'everything I own is warm and clean',
      ],
    },
  ),
  song(
    { id: 'fire-escape-astronomy', title: 'Fire Escape Astronomy', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['dreamy', 'hopeful'], theme: 'stars' },
    {
      verse_1: [
        'Climb the rusted ladder with a blanket',
        'city glow has swallowed half the sky',
        'I find a single star and try to name it',
        'a satellite goes blinking by',
      ],
      chorus: [
        'Fire escape astronomy',
        'the moon, a passing plane and me',
        'I do not need a telescope',
        'one small light is room for hope',
      ],
      verse_2: [
        'Down below a siren draws a circle',
        'somebody is laughing at a joke',
        'the clouds above are bruised and purple',
        'a chimney lets out a ribbon of smoke',
      ],
      bridge: [
        'Count the windows, count the sparks',
        'every room a little ark',
      ],
      outro: [
        'Fold the blanket, climb back in',
        'leave the window open for the wind',
      ],
    },
  ),
  song(
    { id: 'snow-day-tape', title: 'Snow Day Tape', songwriterId: 'theo-brandt', artistId, language: 'en', mood: ['nostalgic', 'calm'], theme: 'winter' },
    {
      verse_1: [
        'School called off and the roads are white',
        'the radio says to stay inside',
        'my brother ties his sled up tight',
        'and waits for the plough to pass outside',
      ],
      chorus: [
        'Press play on the snow day',
        'slow beats in a slow way',
        'cocoa with a skin on top',
        'let the whole street stop',
      ],
      verse_2: [
        'Mittens drying on the vent',
        'board games missing half the cards',
        'nobody asks where the morning went',
        'we are footprints in the neighbour\'s yard',
      ],
      bridge: [
        'Grown up now, I still watch the sky',
        'waiting on a white alibi',
      ],
      outro: [
        'Tape still rolling in the attic room',
        'a winter humming out of tune',
      ],
    },
  ),
  song(
    { id: 'noodles-on-the-night-shift', title: 'Noodles on the Night Shift', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['restless', 'warm'], theme: 'city nights' },
    {
      verse_1: [
        'Two a.m. at the corner stall',
        'broth and noodles in a paper bowl',
        'the cook is watching football on the wall',
        'the steam unknots me, bowl by bowl',
      ],
      chorus: [
        'Noodles on the night shift',
        'fluorescent light and a slow drift',
        'everybody tired in the same key',
        'this city keeps a stool for me',
      ],
      verse_2: [
        'Nurses laughing in their mint-green scrubs',
        'a cabbie counting out his change',
        'we are members of a sleepless club',
        'with hours the sun would call strange',
      ],
      bridge: [
        'When the shutters rise at six',
        'we go home like burnt-out wicks',
      ],
      outro: [
        'Drink the last of it and tip my cap',
        'same again tomorrow, same old chat',
      ],
    },
  ),
];
