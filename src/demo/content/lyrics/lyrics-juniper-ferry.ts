import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'juniper-ferry';

/** The Juniper Ferry, part one (English): harbours, kitchens, fields and far-off brothers. */
export const juniperFerryLyrics: LyricsDocument[] = [
  song(
    { id: 'salt-on-the-ferry-rail', title: 'Salt on the Ferry Rail', songwriterId: 'wren-hallett', artistId, language: 'en', mood: ['nostalgic', 'hopeful'], theme: 'leaving home' },
    {
      verse_1: [
        'Mother wrapped a loaf in checkered cloth',
        'Father shook my hand and looked away',
        'the ferry coughed its engine through the frost',
        'and pulled me out across the slate-grey bay',
      ],
      chorus: [
        'Salt on the ferry rail',
        'salt upon my cheek',
        'the island shrinking small and pale',
        'the words too big to speak',
      ],
      verse_2: [
        'I could name you every rock and cove',
        'the chapel roof, the crooked chimney stack',
        'the lane where once the tinker\'s wagon drove',
        'I swore that one day I would wander back',
      ],
      bridge: [
        'A leaving is a long rope',
        'you hold one end of it with hope',
      ],
      outro: [
        'Wave until the wave is just a fleck',
        'salt still drying on the ferry deck',
      ],
    },
  ),
  song(
    { id: 'mothers-kitchen-clock', title: 'Mother\'s Kitchen Clock', songwriterId: 'wren-hallett', artistId, language: 'en', mood: ['nostalgic', 'melancholic'], theme: 'loss' },
    {
      verse_1: [
        'It ran ten minutes fast for forty years',
        'so we would never miss the morning bus',
        'it ticked above the onions and the tears',
        'and kept a patient eye on all of us',
      ],
      chorus: [
        'Mother\'s kitchen clock',
        'still hanging on its nail',
        'I wind it with the brass key',
        'it tells the same old tale',
      ],
      verse_2: [
        'The house is sold, the curtains taken down',
        'the garden gone to thistle and to seed',
        'I took the clock the day I left the town',
        'it was the only thing I thought I\'d need',
      ],
      bridge: [
        'Time is a thing you cannot keep',
        'but you can hear it in your sleep',
      ],
      outro: [
        'Ten minutes fast, I let it be',
        'she is still a little ahead of me',
      ],
    },
  ),
  song(
    { id: 'the-long-field', title: 'The Long Field', songwriterId: 'wren-hallett', artistId, language: 'en', mood: ['calm', 'hopeful'], theme: 'harvest' },
    {
      verse_1: [
        'Barley bending in a western wind',
        'the tractor humming by the far stone wall',
        'my sister singing with her sleeves pinned',
        'the swallows looping, swift and small',
      ],
      chorus: [
        'Walk with me down the long field',
        'where the light goes gold and slow',
        'every furrow has a story',
        'only the old hedgerows know',
      ],
      verse_2: [
        'Lunch of cheese and apples in the shade',
        'a flask of tea gone lukewarm in the grass',
        'we talk about the plans we never made',
        'and count the silver aeroplanes that pass',
      ],
      bridge: [
        'Hands are sore and backs are bent',
        'but look how far the evening went',
      ],
      outro: [
        'Bring the cattle in and close the gate',
        'the long field says it\'s getting late',
      ],
    },
  ),
  song(
    { id: 'lantern-for-my-brother', title: 'Lantern for My Brother', songwriterId: 'wren-hallett', artistId, language: 'en', mood: ['melancholic', 'hopeful'], theme: 'absence' },
    {
      verse_1: [
        'My brother went to work the northern boats',
        'he sent a letter once from Lerwick town',
        'he wrote of herring and of oilskin coats',
        'and how the northern lights came spilling down',
      ],
      chorus: [
        'I keep a lantern for my brother',
        'burning on the windowsill',
        'if he comes home some winter evening',
        'he will find it glowing still',
      ],
      verse_2: [
        'The years have salted every word he sent',
        'the paper soft as linen in my hand',
        'I do not know exactly where he went',
        'but I have learned to half understand',
      ],
      bridge: [
        'The sea takes some and gives some back',
        'I watch the water, grey and black',
      ],
      outro: [
        'Trim the wick and pour the oil',
        'a little light is worth the toil',
      ],
    },
  ),
  song(
    { id: 'northbound', title: 'Northbound', songwriterId: 'tomas-arriaga', artistId, language: 'en', mood: ['restless', 'hopeful'], theme: 'road trips' },
    {
      verse_1: [
        'Thumb out on the motorway at dawn',
        'a cardboard sign that only says North',
        'the lorries pass, the fog is coming on',
        'a guitar is all I carry forth',
      ],
      chorus: [
        'Northbound, I\'m northbound',
        'where the pine trees meet the sky',
        'I have been too long in the lowland',
        'let me watch the hills go by',
      ],
      verse_2: [
        'A farmer drove me sixty miles or so',
        'his dog was sleeping on my dusty boots',
        'he told me where the wild raspberries grow',
        'and how to tell the mushrooms from the roots',
      ],
      bridge: [
        'Every mile is a question',
        'every town an answer, maybe',
      ],
      outro: [
        'Northbound, the road goes on',
        'I will sing until it\'s gone',
      ],
    },
  ),
  song(
    { id: 'wool-and-woodsmoke', title: 'Wool and Woodsmoke', songwriterId: 'wren-hallett', artistId, language: 'en', mood: ['calm', 'warm'], theme: 'winter' },
    {
      verse_1: [
        'Snow is folding softly on the byre',
        'the kettle muttering a kitchen prayer',
        'we pull our chairs in closer to the fire',
        'and Grandad tells the one about the bear',
      ],
      chorus: [
        'Wool and woodsmoke, wool and woodsmoke',
        'cinnamon and pine',
        'the winter can keep knocking',
        'we are doing fine',
      ],
      verse_2: [
        'Socks are steaming on the fender rail',
        'the dog is dreaming, twitching at his paws',
        'outside the wind is throwing down its hail',
        'inside we laugh at nothing, just because',
      ],
      bridge: [
        'Hold the mug with both your hands',
        'the cold outside will never understand',
      ],
      outro: [
        'Bank the embers, bolt the door',
        'the snow can have the hills, we have the floor',
      ],
    },
  ),
  song(
    { id: 'the-mapmakers-daughter', title: 'The Mapmaker\'s Daughter', songwriterId: 'tomas-arriaga', artistId, language: 'en', mood: ['dreamy', 'romantic'], theme: 'adventure' },
    {
      verse_1: [
        'She inked the rivers in a steady blue',
        'she drew the mountains with a feather pen',
        'she marked an island no one ever knew',
        'and said that she would sail there now and then',
      ],
      chorus: [
        'Oh, the mapmaker\'s daughter',
        'with a compass in her eye',
        'she could chart you any water',
        'she could measure any sky',
      ],
      verse_2: [
        'I asked her for a map to find her heart',
        'she laughed and drew a question mark instead',
        'she said that every road must have a start',
        'and handed me a spool of scarlet thread',
      ],
      bridge: [
        'Follow the thread, follow the line',
        'some places you can only find in time',
      ],
      outro: [
        'Now I sail by her design',
        'an island marked with hers and mine',
      ],
    },
  ),
];
