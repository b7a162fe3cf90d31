/**
 * The waveform of waveform_url (audiowaveform JSON, version 2: min/max pairs), drawn on a canvas with the
 * played part highlighted and a line at the play position. The canvas keeps its size whatever the data,
 * so a track change never moves the page.
 */
import { useEffect, useRef, useState } from 'react';

interface Peaks {
  bits: number;
  length: number;
  data: number[];
}

const cache = new Map<string, Promise<Peaks | null>>();

function loadPeaks(url: string): Promise<Peaks | null> {
  let pending = cache.get(url);
  if (!pending) {
    pending = fetch(url)
      .then((r) => (r.ok ? (r.json() as Promise<Peaks>) : null))
      .catch(() => null);
    cache.set(url, pending);
    // Signed links change per card; keep only the last few.
    if (cache.size > 8) cache.delete(cache.keys().next().value as string);
  }
  return pending;
}

function cssColor(element: Element, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

export function Waveform({ url, position, label }: { url: string | null; position: number; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [peaks, setPeaks] = useState<Peaks | null>(null);

  useEffect(() => {
    let live = true;
    setPeaks(null);
    if (url) void loadPeaks(url).then((p) => live && setPeaks(p));
    return () => {
      live = false;
    };
  }, [url]);

  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    const ratio = window.devicePixelRatio || 1;
    const width = element.clientWidth * ratio;
    const height = element.clientHeight * ratio;
    if (element.width !== width) element.width = width;
    if (element.height !== height) element.height = height;
    context.clearRect(0, 0, width, height);
    const played = cssColor(element, '--wave-played', '#7dd3fc');
    const rest = cssColor(element, '--wave-rest', '#475569');
    const mid = height / 2;
    const columns = Math.max(1, Math.floor(width / (3 * ratio)));
    const at = Math.max(0, Math.min(1, position));
    for (let c = 0; c < columns; c++) {
      let amplitude = 0.04;
      if (peaks && peaks.length > 0) {
        const from = Math.floor((c / columns) * peaks.length);
        const to = Math.max(from + 1, Math.floor(((c + 1) / columns) * peaks.length));
        const scale = peaks.bits === 16 ? 32768 : 128;
        for (let i = from; i < to && i < peaks.length; i++) {
          amplitude = Math.max(amplitude, Math.abs(peaks.data[2 * i]) / scale, Math.abs(peaks.data[2 * i + 1]) / scale);
        }
      }
      context.fillStyle = c / columns <= at ? played : rest;
      const h = Math.max(1, amplitude * (height - 2));
      context.fillRect(c * 3 * ratio, mid - h / 2, 2 * ratio, h);
    }
    context.fillStyle = cssColor(element, '--wave-cursor', '#f8fafc');
    context.fillRect(Math.round(at * width) - ratio, 0, 2 * ratio, height);
  }, [peaks, position]);

  return <canvas ref={canvas} className="waveform" role="img" aria-label={label} data-loaded={peaks ? 'true' : 'false'} />;
}
