import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'neon-tidewater';

/** Neon Tidewater, part two: signals, motels, tides and stubborn skylines. */
export const neonTidewaterLyricsTwo: LyricsDocument[] = [
  song(
    { id: 'static-lovers', title: 'Static Lovers', songwriterId: 'kasimir-oduya', artistId, language: 'en', mood: ['romantic', 'melancholic'], theme: 'long-distance love' },
    {
      verse_1: [
        'Your voice arrives a second late',
        'bounced off a tower in the rain',
        'I hear the time zones in the wait',
        'a crackle folded in your name',
      ],
      chorus: [
        'We are static lovers',
        'whispering through the hiss',
        'a satellite that hovers',
        'between your dawn and this',
      ],
      verse_2: [
        'You tell me morning has arrived',
        'you are eating oranges in the sun',
        'I sit on the hood of my old ride',
        'my evening barely has begun',
      ],
      bridge: [
        'If the line goes dead, I will call again',
        'I will call until the static ends',
      ],
      outro: [
        'Goodnight, good morning, we agree',
        'the ocean hums from you to me',
      ],
    },
  ),
  song(
    { id: 'motel-pool-neon', title: 'Motel Pool Neon', songwriterId: 'lena-voss', artistId, language: 'en', mood: ['dreamy', 'romantic'], theme: 'road trips' },
    {
      verse_1: [
        'Vacancy is blinking red and blue',
        'a chlorine moon is floating in the pool',
        'we parked the car at quarter after two',
        'the desert air is soft and cool',
      ],
      chorus: [
        'Motel pool neon',
        'painting ripples on your skin',
        'the highway hums along',
        'the quiet pulls us in',
      ],
      verse_2: [
        'The ice machine is rattling down the hall',
        'a trucker playing cards beneath a lamp',
        'your shadow swimming on the cinder wall',
        'our towels folded, smelling sweet and damp',
      ],
      bridge: [
        'Tomorrow there are miles and miles',
        'tonight the water holds our smiles',
      ],
      outro: [
        'Check out at noon, the neon sleeps',
        'the pool remembers what it keeps',
      ],
    },
  ),
  song(
    { id: 'electric-tide', title: 'Electric Tide', songwriterId: 'kasimir-oduya', artistId, language: 'en', mood: ['energetic', 'euphoric'], theme: 'dancing by the sea' },
    {
      verse_1: [
        'Boardwalk speakers shaking in the dark',
        'strobes are flashing on the ocean spray',
        'every footstep strikes a tiny spark',
        'the crowd rolls in like breakers on the bay',
      ],
      chorus: [
        'Ride the electric tide',
        'let it pull you to the floor',
        'arms up, open wide',
        'the bass is breaking on the shore',
      ],
      verse_2: [
        'Glow sticks drifting like a school of fish',
        'salt and sugar on the evening air',
        'the moon is spinning records, hear them hiss',
        'and midnight shakes the silver from her hair',
      ],
      bridge: [
        'Higher, higher, the water rising',
        'the whole horizon synchronising',
      ],
      outro: [
        'When the tide goes out at dawn',
        'we will still be dancing on',
      ],
    },
  ),
  song(
    { id: 'pulse-rate', title: 'Pulse Rate', songwriterId: 'lena-voss', artistId, language: 'en', mood: ['energetic', 'determined'], theme: 'working out' },
    {
      verse_1: [
        'Heart monitor is climbing into red',
        'the morning running laps inside my head',
        'the mirror says I am stronger than I feared',
        'the doubts I carried in have disappeared',
      ],
      chorus: [
        'Pulse rate rising past one forty',
        'lungs on fire and the synths are roaring',
        'no one has to cheer me on',
        'the beat will carry me along',
      ],
      verse_2: [
        'Concrete stairs up to the stadium top',
        'sunrise spilling orange on the glass',
        'my legs are shaking but they will not stop',
        'I let the heavy minutes pass',
      ],
      bridge: [
        'Breathe in, breathe out, hold the line',
        'this body is a clock I wind',
      ],
      outro: [
        'Slow it down in the cooling air',
        'the proof is written on every stair',
      ],
    },
  ),
  song(
    { id: 'skyline-vow', title: 'Skyline Vow', songwriterId: 'kasimir-oduya', artistId, language: 'en', mood: ['defiant', 'hopeful'], theme: 'ambition' },
    {
      verse_1: [
        'They said this town would never let me in',
        'I swept the floors of every neon bar',
        'I wrote my verses on a paper napkin',
        'and kept them in the glovebox of my car',
      ],
      chorus: [
        'This is my skyline vow',
        'written in the tower lights',
        'I am done with waiting now',
        'I will claim these city nights',
      ],
      verse_2: [
        'Every door that slammed became a drum',
        'every no became a steady beat',
        'I know the kind of person I\'ve become',
        'I wear the rain like armour on the street',
      ],
      bridge: [
        'Count me out and I will count again',
        'one, two, three, a stubborn refrain',
      ],
      outro: [
        'From the rooftop I can see',
        'a city making room for me',
      ],
    },
  ),
  song(
    { id: 'lighthouse-frequency', title: 'Lighthouse Frequency', songwriterId: 'lena-voss', artistId, language: 'en', mood: ['hopeful', 'calm'], theme: 'the sea' },
    {
      verse_1: [
        'Out past the harbour where the radios fade',
        'a beam is turning on a lonely stone',
        'it never asked the sea to be afraid',
        'it only sweeps the dark and hums its tone',
      ],
      chorus: [
        'Tune me to the lighthouse frequency',
        'a slow white signal sweeping over me',
        'when the fog rolls in and the compass lies',
        'I follow the pulse with open eyes',
      ],
      verse_2: [
        'The keeper left a notebook by the lamp',
        'with tides and weather written out in rows',
        'the wind was wild, the wool was damp',
        'the light kept turning, so the story goes',
      ],
      bridge: [
        'Round and round, a steady eye',
        'a slow white lantern for the sky',
      ],
      outro: [
        'Static on the water, soft and bright',
        'I am coming home on borrowed light',
      ],
    },
  ),
  song(
    { id: 'rain-on-chrome', title: 'Rain on Chrome', songwriterId: 'kasimir-oduya', artistId, language: 'en', mood: ['melancholic', 'restless'], theme: 'rain' },
    {
      verse_1: [
        'Wipers keeping time like a metronome',
        'the boulevard is melting into streaks',
        'I have been driving nowhere, far from home',
        'the radio has played one song for weeks',
      ],
      chorus: [
        'Rain on chrome and rain on glass',
        'every signal turning red',
        'the city bleeds in watercolour',
        'like the letters left unread',
      ],
      verse_2: [
        'A payphone ringing on an empty block',
        'nobody answers, so it rings again',
        'I almost stop, I almost turn the lock',
        'I almost call you from the pouring rain',
      ],
      bridge: [
        'Puddles hold a hundred upside-down moons',
        'each one gone a little too soon',
      ],
      outro: [
        'Park the car and let it pour',
        'the engine ticking, nothing more',
      ],
    },
  ),
  song(
    { id: 'starfield-sprint', title: 'Starfield Sprint', songwriterId: 'lena-voss', artistId, language: 'en', mood: ['energetic', 'euphoric'], theme: 'night running' },
    {
      verse_1: [
        'The stadium is locked, the gates are closed',
        'I climb the fence with my laces tight',
        'the grass is silver where the dew has dozed',
        'and every lane is mine tonight',
      ],
      chorus: [
        'Starfield sprint, starfield sprint',
        'Orion pacing at my side',
        'every breath a comet glint',
        'every stride a longer stride',
      ],
      verse_2: [
        'My headlamp bobbing like a pocket moon',
        'my watch is blinking out a steady green',
        'I pass the bleachers humming half a tune',
        'the fastest that I have ever been',
      ],
      bridge: [
        'Gravity, let go of my heels',
        'show me how the lightness feels',
      ],
      outro: [
        'Last lap under the Pleiades',
        'cooling down in the midnight breeze',
      ],
    },
  ),
];
