import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'quiet-radiator';

/** Quiet Radiator, part two: mornings, commutes, things that grow and things that fade. */
export const quietRadiatorLyricsTwo: LyricsDocument[] = [
  song(
    { id: 'sunday-pancake-theory', title: 'Sunday Pancake Theory', songwriterId: 'theo-brandt', artistId, language: 'en', mood: ['romantic', 'hopeful'], theme: 'lazy mornings' },
    {
      verse_1: [
        'You burn the first one every time',
        'you say the pan is warming up',
        'I keep the score in maple lines',
        'you steal the berries from my cup',
      ],
      chorus: [
        'Sunday pancake theory',
        'the second try is always better',
        'flour on your sleeve, so clearly',
        'I would stay in any weather',
      ],
      verse_2: [
        'The radio forgets the news',
        'the cat is sleeping on your shoes',
        'we have no plans, the day is loose',
        'and doing nothing is what I choose',
      ],
      bridge: [
        'Flip it high and catch it wrong',
        'we laugh the whole way through the song',
      ],
      outro: [
        'Syrup on the table, sun across the floor',
        'I never knew a morning could hold more',
      ],
    },
  ),
  song(
    { id: 'library-basement', title: 'Library Basement', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['focused', 'calm'], theme: 'late-night studying' },
    {
      verse_1: [
        'Fourth floor down where the signal dies',
        'shelves of atlases nobody reads',
        'fluorescent tubes with flickering eyes',
        'the old pipes ticking off like beads',
      ],
      chorus: [
        'Down in the library basement',
        'I am learning how to be patient',
        'page by page and line by line',
        'I make the borrowed hours mine',
      ],
      verse_2: [
        'A pencil scratches in the stacks',
        'a cart wheel squeaking down the aisle',
        'I copy dates of ancient pacts',
        'and names I will forget in a while',
      ],
      bridge: [
        'No windows here to tell the hour',
        'just the hum of borrowed power',
      ],
      outro: [
        'Stamp the card and climb the stair',
        'the night is waiting for me there',
      ],
    },
  ),
  song(
    { id: 'old-polaroids', title: 'Old Polaroids', songwriterId: 'theo-brandt', artistId, language: 'en', mood: ['nostalgic', 'melancholic'], theme: 'loss' },
    {
      verse_1: [
        'Found a shoebox underneath his bed',
        'faded squares with dates in pencil lead',
        'a beach in nineteen seventy-two',
        'a girl in a hat of washed-out blue',
      ],
      chorus: [
        'Old polaroids, slow to fade',
        'every smile the summers made',
        'I hold them to the window light',
        'and he is young again tonight',
      ],
      verse_2: [
        'A dog I never got to know',
        'a car with fins, a fence of snow',
        'his garden bursting in July',
        'a crooked wink for passers-by',
      ],
      bridge: [
        'Memory is a chemical thing',
        'shake it gently and it sings',
      ],
      outro: [
        'Put the lid back, keep them dry',
        'some farewells take years to say goodbye',
      ],
    },
  ),
  song(
    { id: 'headphones-on-the-train', title: 'Headphones on the Train', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['restless', 'focused'], theme: 'commuting' },
    {
      verse_1: [
        'Seven forty and the doors are closing',
        'a hundred people holding still',
        'I turn the volume up, composing',
        'a little room that no one else can fill',
      ],
      chorus: [
        'Headphones on the train',
        'a snare like gentle rain',
        'the rush hour far away',
        'I am somewhere else today',
      ],
      verse_2: [
        'Tunnel lights in dotted yellow',
        'a banker nodding off to sleep',
        'the carriage rocks him like a cello',
        'the stations pass in one long sweep',
      ],
      bridge: [
        'Mind the gap between the day I am in',
        'and the one I hum beneath my skin',
      ],
      outro: [
        'Doors slide open, daylight in',
        'pause the track, the day begins',
      ],
    },
  ),
  song(
    { id: 'houseplant', title: 'Houseplant', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['hopeful', 'calm'], theme: 'starting over' },
    {
      verse_1: [
        'Bought a fern the week you moved away',
        'the label said it likes the shade',
        'I water it on every second day',
        'it never minds the mess I made',
      ],
      chorus: [
        'Little green thing by the sink',
        'growing slower than I think',
        'one new leaf and then another',
        'we are learning from each other',
      ],
      verse_2: [
        'I moved it closer to the glass',
        'it leaned into the afternoon',
        'I guess that every grey spell passes',
        'if you face the light and wait for June',
      ],
      bridge: [
        'Roots need room and so do I',
        'a bigger pot, a wider sky',
      ],
      outro: [
        'Look at us, a little taller now',
        'nobody had to show us how',
      ],
    },
  ),
  song(
    { id: 'rooftop-in-august', title: 'Rooftop in August', songwriterId: 'theo-brandt', artistId, language: 'en', mood: ['dreamy', 'euphoric'], theme: 'summer' },
    {
      verse_1: [
        'Tar is soft beneath the folding chairs',
        'we carried up a speaker and some ice',
        'the block has hung its laundry in the air',
        'and someone cuts the melon into slices',
      ],
      chorus: [
        'Rooftop in August',
        'the heat is slowly letting go',
        'the sky turns peach and then to rust',
        'we watch the city glow below',
      ],
      verse_2: [
        'Pigeons circle like a lazy crown',
        'a trumpet lesson drifts from three doors down',
        'your shoulders freckled from the day',
        'we lie there while the colours drain away',
      ],
      bridge: [
        'No one wants to be the first to leave',
        'summer tugging gently at our sleeve',
      ],
      outro: [
        'Bring the ice down, leave the chairs',
        'we will find them waiting there',
      ],
    },
  ),
  song(
    { id: 'last-bus-home', title: 'Last Bus Home', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['melancholic', 'restless'], theme: 'city nights' },
    {
      verse_1: [
        'Said goodbye beneath the station clock',
        'you turned left where the bakery used to be',
        'I stood and heard the seconds knock',
        'then let the late bus carry me',
      ],
      chorus: [
        'Last bus home, the seats are bare',
        'a paper cup rolls here and there',
        'I wrote your name on misted glass',
        'and watched it vanish at the underpass',
      ],
      verse_2: [
        'The driver does not say a word',
        'the engine groans the only song',
        'I replay everything I heard',
        'and count the ways we both were wrong',
      ],
      bridge: [
        'Maybe we were two different routes',
        'sharing one stop for a while',
      ],
      outro: [
        'End of the line, the doors fold wide',
        'cold air waiting on the other side',
      ],
    },
  ),
  song(
    { id: 'flashcards-at-dawn', title: 'Flashcards at Dawn', songwriterId: 'ada-kimura', artistId, language: 'en', mood: ['focused', 'hopeful'], theme: 'late-night studying' },
    {
      verse_1: [
        'The sky is turning milk-blue at the blind',
        'seven flashcards left inside the stack',
        'I flip them over one more time',
        'the answers slowly coming back',
      ],
      chorus: [
        'Flashcards at dawn',
        'coffee gone cold in the cup',
        'the birds are waking one by one',
        'and I am almost caught up',
      ],
      verse_2: [
        'Verbs in French, the names of ancient kings',
        'the periodic table taped up on the door',
        'my roommate murmurs formulas and things',
        'then turns to face the wall and sleeps some more',
      ],
      bridge: [
        'Whatever the morning asks of me',
        'I am as ready as I will be',
      ],
      outro: [
        'Toast and a pencil tucked behind my ear',
        'the exam hall doors, and nothing left to fear',
      ],
    },
  ),
  song(
    { id: 'basketball-court-lights', title: 'Basketball Court Lights', songwriterId: 'theo-brandt', artistId, language: 'en', mood: ['energetic', 'nostalgic'], theme: 'summer evenings' },
    {
      verse_1: [
        'Chain-link nets and a dented rim',
        'the court lights buzzing on at eight',
        'my cousin dribbling with a grin',
        'the ice-cream van is running late',
      ],
      chorus: [
        'Under the basketball court lights',
        'we played until the moths came out',
        'shirts against skins on summer nights',
        'and every basket earned a shout',
      ],
      verse_2: [
        'Sneakers squeaking on the painted key',
        'we kept the score in chalk along the fence',
        'nobody ever won, or so it seemed to me',
        'and nothing since has made that kind of sense',
      ],
      bridge: [
        'Swish, swish, the net still sings',
        'some evenings turn to lasting things',
      ],
      outro: [
        'Court lights flicker, one goes dark',
        'I still can hear it from the park',
      ],
    },
  ),
];
