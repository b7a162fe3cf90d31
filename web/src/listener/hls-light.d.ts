// hls.js's light entry point ships no declarations of its own; it exports the same Hls class as the full build.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
