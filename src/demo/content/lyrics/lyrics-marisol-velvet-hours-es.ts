import type { LyricsDocument } from '../../../engine/types.js';
import { song } from './song.js';

const artistId = 'marisol-velvet-hours';

/** Marisol & the Velvet Hours, Spanish set: boleros, moons, corners and a voice that belongs to her. */
export const marisolVelvetHoursLyricsEs: LyricsDocument[] = [
  song(
    { id: 'luna-de-cobre', title: 'Luna de Cobre', songwriterId: 'marisol-ortega', artistId, language: 'es', mood: ['romantic', 'dreamy'], theme: 'night' },
    {
      verse_1: [
        'Luna de cobre sobre la azotea',
        'tu risa baja por la escalera',
        'tengo en las manos la tarde entera',
        'y un bolero esperando que lo quieras',
      ],
      chorus: [
        'Luna de cobre, quédate todavía',
        'asómate un rato a mi ventana',
        'que la noche es larga y la voz es mía',
        'y tengo una canción para mañana',
      ],
      verse_2: [
        'Suena una trompeta en el bar de la esquina',
        'las farolas bailan con el viento',
        'me pongo el vestido color mandarina',
        'y salgo a buscarte sin perder el tiempo',
      ],
      bridge: [
        'Brilla, brilla, moneda antigua',
        'paga la noche que me debías',
      ],
      outro: [
        'Luna de cobre, luz de mi calle',
        'guárdanos el secreto hasta el sol',
      ],
    },
  ),
  song(
    { id: 'bolero-de-la-lluvia', title: 'Bolero de la Lluvia', songwriterId: 'marisol-ortega', artistId, language: 'es', mood: ['melancholic', 'romantic'], theme: 'rain' },
    {
      verse_1: [
        'Llueve despacio sobre la ciudad',
        'los paraguas se besan en la acera',
        'yo te recuerdo con tanta claridad',
        'como si fueras la lluvia primera',
      ],
      chorus: [
        'Bolero de la lluvia',
        'cada gota tiene tu voz',
        'el cielo gris me acompaña',
        'y me enseña a decir adiós',
      ],
      verse_2: [
        'El café se enfría junto a tu taza',
        'tu abrigo sigue colgado en la puerta',
        'la tarde pasa y nadie pasa',
        'y la ventana se queda abierta',
      ],
      bridge: [
        'Cae la lluvia, cae la pena',
        'el agua sabe lo que se lleva',
      ],
      outro: [
        'Bolero de la lluvia, baila conmigo',
        'hasta que el cielo se quede tranquilo',
      ],
    },
  ),
  song(
    { id: 'te-espero-en-la-esquina', title: 'Te Espero en la Esquina', songwriterId: 'marisol-ortega', artistId, language: 'es', mood: ['romantic', 'hopeful'], theme: 'waiting for love' },
    {
      verse_1: [
        'Te espero junto a la panadería',
        'con dos cafés y una flor de papel',
        'la tarde suena a melodía',
        'y el barrio entero huele a pan y a miel',
      ],
      chorus: [
        'Te espero en la esquina',
        'no tardes, corazón',
        'la calle se ilumina',
        'con solo oír tu voz',
      ],
      verse_2: [
        'Pasa el vecino con su perro gris',
        'la niña vende limonada fría',
        'todos saben por qué sonrío así',
        'todos saben que eres mi alegría',
      ],
      bridge: [
        'Cinco minutos son una eternidad',
        'diez minutos son una ciudad',
      ],
      outro: [
        'Ya te veo doblando la calle',
        'con tu sombrero y tu prisa de siempre',
      ],
    },
  ),
  song(
    { id: 'canela', title: 'Canela', songwriterId: 'marisol-ortega', artistId, language: 'es', mood: ['euphoric', 'romantic'], theme: 'dancing' },
    {
      verse_1: [
        'Canela en el aire, la orquesta empieza',
        'los pies se despiertan antes que yo',
        'la pista se llena de luz y de fiesta',
        'y el trombón responde que sí y que no',
      ],
      chorus: [
        'Canela, canela, gira conmigo',
        'que la noche es dulce y quiere bailar',
        'canela, canela, tú eres mi abrigo',
        'la música sube, espuma de mar',
      ],
      verse_2: [
        'Mi abuela bailaba en este mismo salón',
        'con flores de nardo prendidas al pelo',
        'me dijo, mi niña, escucha el tambor',
        'que el ritmo te enseña a tocar el cielo',
      ],
      bridge: [
        'Uno, dos, tres, la vuelta entera',
        'cuatro, cinco, seis, hasta la primavera',
      ],
      outro: [
        'Canela en los labios, canela en la voz',
        'se acaba la noche, quedamos los dos',
      ],
    },
  ),
  song(
    { id: 'mar-de-noche', title: 'Mar de Noche', songwriterId: 'marisol-ortega', artistId, language: 'es', mood: ['calm', 'dreamy'], theme: 'the sea' },
    {
      verse_1: [
        'El mar de noche respira despacio',
        'las barcas duermen con la luz apagada',
        'la arena guarda el calor del verano',
        'y las estrellas se mojan en el agua',
      ],
      chorus: [
        'Mar de noche, mar de sueño',
        'méceme como una cuna',
        'que mi barco es pequeño',
        'y me guía la luna',
      ],
      verse_2: [
        'Un faro lejano parpadea',
        'un pescador canta bajito',
        'la brisa trae olor a marea',
        'y el tiempo se vuelve infinito',
      ],
      bridge: [
        'Cierra los ojos, deja que el agua',
        'te cuente historias en voz baja',
      ],
      outro: [
        'Mar de noche, buenas noches',
        'hasta que el alba nos toque',
      ],
    },
  ),
  song(
    { id: 'mi-voz-es-mia', title: 'Mi Voz Es Mía', songwriterId: 'marisol-ortega', artistId, language: 'es', mood: ['defiant', 'energetic'], theme: 'independence' },
    {
      verse_1: [
        'Me dijeron que cantara más bajito',
        'que no hacía falta levantar la voz',
        'guardé mis canciones en un cajoncito',
        'hasta que un día rompí el cajón',
      ],
      chorus: [
        'Mi voz es mía, mi voz es mía',
        'no la presto, no la vendo, no la doy',
        'la llevo conmigo de noche y de día',
        'y canto fuerte porque así soy',
      ],
      verse_2: [
        'Hoy la trompeta me sigue los pasos',
        'el contrabajo camina a mi lado',
        'no necesito permiso ni aplausos',
        'el escenario ya me lo he ganado',
      ],
      bridge: [
        'Que suene, que suene, que llegue lejos',
        'que la escuchen hasta los espejos',
      ],
      outro: [
        'Mi voz es mía, ya lo sabes',
        'no hay jaula que la pueda atar',
      ],
    },
  ),
];
