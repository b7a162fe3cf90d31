/**
 * Puts the live radio on an <audio> element: HLS (hls_url) where the browser can play it, through hls.js
 * over Media Source Extensions or natively without them (older iOS), and the continuous stream (stream_url)
 * otherwise.
 * hls.js is loaded only when needed (its light build, a separate chunk), so the listener bundle stays small.
 */
export type PlaybackMode = 'hls-native' | 'hls.js' | 'continuous';

export interface Playback {
  mode: PlaybackMode;
  /** Releases what the mode holds (hls.js's media source and loaders). */
  detach(): void;
}

const HLS_MIME = 'application/vnd.apple.mpegurl';

/**
 * Attaches the stream; `onHlsFailure` is called once if HLS fails for good (a fatal hls.js error), and the
 * caller falls back to the continuous stream. With `allowHls` false it goes straight to the continuous stream.
 */
export async function attachPlayback(
  element: HTMLAudioElement,
  urls: { hls: string | undefined; continuous: string },
  allowHls: boolean,
  onHlsFailure: (why: string) => void,
): Promise<Playback> {
  if (allowHls && urls.hls) {
    if (typeof MediaSource !== 'undefined') {
      // The light build: no subtitles, alternate audio or DRM, none of which a radio's audio playlist needs.
      const { default: Hls } = await import('hls.js/light');
      if (Hls.isSupported()) {
        // No worker: the page's CSP (script-src 'self') refuses hls.js's blob: worker, and demuxing 128-320
        // kbps of MPEG audio on the main thread costs next to nothing.
        // No metadata text track either: hls.js would give it a data: source the CSP's media-src refuses, and the
        // page shows the now-playing card from the WebSocket (the segments' ID3 titles serve other players).
        const hls = new Hls({ liveSyncDurationCount: 3, enableWorker: false, enableID3MetadataCues: false, enableEmsgMetadataCues: false });
        let failed = false;
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal || failed) return;
          failed = true;
          hls.destroy();
          onHlsFailure(data.details);
        });
        hls.loadSource(urls.hls);
        hls.attachMedia(element);
        return { mode: 'hls.js', detach: () => hls.destroy() };
      }
    }
    // Native HLS only without Media Source Extensions (iPhone Safari before ManagedMediaSource): hls.js's
    // path is the one tested, and Chromium's own HLS (canPlayType says maybe) did not play these segments.
    if (element.canPlayType(HLS_MIME)) {
      element.src = urls.hls;
      return { mode: 'hls-native', detach: () => undefined };
    }
  }
  element.src = urls.continuous;
  return { mode: 'continuous', detach: () => undefined };
}
