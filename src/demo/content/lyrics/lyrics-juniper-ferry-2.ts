import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'juniper-ferry';

/** The Juniper Ferry, part two: canal days and celebrations, then Tomás's songs in Spanish. */
export const juniperFerryLyricsTwo: LyricsDocument[] = [
  song(
    { id: 'low-bridge-song', title: 'Low Bridge Song', songwriterId: 'wren-hallett', artistId, language: 'en', mood: ['joyful', 'calm'], theme: 'friendship' },
    {
      verse_1: [
        'Down the canal in a painted boat',
        'my cousin steering, me on the rope',
        'a heron watching in his long grey coat',
        'the locks are slow, we take them with a joke',
      ],
      chorus: [
        'Duck your head at the low bridge',
        'mind your hat and mind your nose',
        'there\'s a bakery by the ridge',
        'and the water comes and goes',
      ],
      verse_2: [
        'A kingfisher flashing like a blue mistake',
        'a fisherman who never seems to catch',
        'we pass a cottage with a crooked gate',
        'a sleepy tabby sprawled across the thatch',
      ],
      bridge: [
        'Slow water, no hurry',
        'nothing here to worry',
      ],
      outro: [
        'Tie her up as the sun goes down',
        'the last low bridge before the town',
      ],
    },
  ),
  song(
    { id: 'blackberry-lane', title: 'Blackberry Lane', songwriterId: 'tomas-arriaga', artistId, language: 'en', mood: ['romantic', 'nostalgic'], theme: 'first love' },
    {
      verse_1: [
        'Purple fingers, purple smile',
        'we picked them warm along the wall',
        'you said you\'d stay a little while',
        'and stayed until the leaves would fall',
      ],
      chorus: [
        'Meet me down on Blackberry Lane',
        'where the brambles catch our sleeves',
        'when the summer comes again',
        'I will wait among the leaves',
      ],
      verse_2: [
        'A jam jar full, a scratch or two',
        'the wasps were drowsy in the heat',
        'I never said it, but I knew',
        'the taste of everything was sweet',
      ],
      bridge: [
        'Thorns and berries on one vine',
        'the sweet came with the sting that time',
      ],
      outro: [
        'Purple fingers, purple stain',
        'I still walk on Blackberry Lane',
      ],
    },
  ),
  song(
    { id: 'harbour-wedding', title: 'Harbour Wedding', songwriterId: 'wren-hallett', artistId, language: 'en', mood: ['euphoric', 'joyful'], theme: 'celebration' },
    {
      verse_1: [
        'Bunting strung from mast to mast',
        'the fiddler tuning on a lobster creel',
        'the bride came running up the quay at last',
        'with ribbons flying and a dancing heel',
      ],
      chorus: [
        'Ring the bells for the harbour wedding',
        'every boat has raised a flag',
        'the whole town singing, the whole town swaying',
        'and the dog has stolen cake out of a bag',
      ],
      verse_2: [
        'Aunties dancing on the cobblestones',
        'the sailors singing in a rolling round',
        'the groom is blushing to his very bones',
        'the sea itself is making a merry sound',
      ],
      bridge: [
        'Spin me round and take my hand',
        'the tide is turning, follow the band',
      ],
      outro: [
        'Lanterns on the water, late and bright',
        'the harbour singing half the night',
      ],
    },
  ),
  song(
    { id: 'camino-de-sal', title: 'Camino de Sal', songwriterId: 'tomas-arriaga', artistId, language: 'es', mood: ['nostalgic', 'hopeful'], theme: 'leaving home' },
    {
      verse_1: [
        'Dejé mi pueblo al despuntar el día',
        'con una mochila y un cuaderno azul',
        'mi abuela me bendijo en la cocina',
        'y el perro me siguió hasta el autobús',
      ],
      chorus: [
        'Camino de sal, camino de viento',
        'llévame lejos pero tráeme después',
        'guardo en el pecho un puñado de tiempo',
        'y el mar me enseña a volver otra vez',
      ],
      verse_2: [
        'Las gaviotas cruzan el puerto viejo',
        'las redes duermen junto a la pared',
        'me llevo el eco de un acordeón',
        'y la promesa que un día cumpliré',
      ],
      bridge: [
        'Uno se marcha y algo se queda',
        'una silla esperando junto a la mesa',
      ],
      outro: [
        'Camino de sal, ya te conozco',
        'cada piedra sabe mi nombre',
      ],
    },
  ),
  song(
    { id: 'la-casa-del-faro', title: 'La Casa del Faro', songwriterId: 'tomas-arriaga', artistId, language: 'es', mood: ['melancholic', 'calm'], theme: 'the sea' },
    {
      verse_1: [
        'En la casa del faro vive el silencio',
        'la sal ha vestido de gris la pared',
        'mi padre subía despacio la torre',
        'para que los barcos pudieran volver',
      ],
      chorus: [
        'Gira la luz, gira la noche',
        'gira la espuma contra el peñón',
        'nadie me escribe, nadie responde',
        'solo las olas me cantan su son',
      ],
      verse_2: [
        'Ahora la lámpara es automática',
        'ya no hace falta quien cuide el cristal',
        'pero yo vuelvo cada primavera',
        'a limpiar los vidrios y a oler el mar',
      ],
      bridge: [
        'Hay luces que siguen brillando',
        'aunque nadie las mire ya',
      ],
      outro: [
        'En el faro todavía te veo',
        'subiendo despacio con tu farol',
      ],
    },
  ),
  song(
    { id: 'cartas-al-rio', title: 'Cartas al Río', songwriterId: 'tomas-arriaga', artistId, language: 'es', mood: ['romantic', 'nostalgic'], theme: 'first love' },
    {
      verse_1: [
        'Te escribía cartas para el río',
        'dobladas en barcos de papel',
        'la corriente era nuestro correo',
        'y el sauce firmaba con hojas de miel',
      ],
      chorus: [
        'Cartas al río, barcos de papel',
        'cada palabra se fue a navegar',
        'si alguna llega a tu orilla un día',
        'léela despacio antes del mar',
      ],
      verse_2: [
        'Tenía quince años y una bicicleta',
        'tú tenías trenzas y olor a limón',
        'nunca me atreví a decírtelo en persona',
        'se lo conté al agua con el corazón',
      ],
      bridge: [
        'El río no guarda secretos',
        'los lleva todos hacia el mar',
      ],
      outro: [
        'Hoy vuelvo al puente con otra carta',
        'por si el agua aún sabe llegar',
      ],
    },
  ),
  song(
    { id: 'vuelvo-en-otono', title: 'Vuelvo en Otoño', songwriterId: 'tomas-arriaga', artistId, language: 'es', mood: ['hopeful', 'nostalgic'], theme: 'homecoming' },
    {
      verse_1: [
        'Cuando las hojas se pongan doradas',
        'y el humo suba por la chimenea',
        'y las castañas crujan en la brasa',
        'guárdame un sitio junto a la ventana',
      ],
      chorus: [
        'Vuelvo en otoño, vuelvo a mi tierra',
        'con las botas gastadas de tanto andar',
        'traigo canciones de otras fronteras',
        'y ganas de no volverme a marchar',
      ],
      verse_2: [
        'He visto ciudades que nunca duermen',
        'puentes de hierro y trenes de cristal',
        'pero ninguna plaza tiene tu fuente',
        'ni las campanas del viejo portal',
      ],
      bridge: [
        'Las golondrinas se van y vuelven',
        'yo aprendí de ellas a regresar',
      ],
      outro: [
        'Vuelvo en otoño, ábreme la puerta',
        'que el camino me enseñó a llegar',
      ],
    },
  ),
];
