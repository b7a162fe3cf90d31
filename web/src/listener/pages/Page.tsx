/**
 * The frame of every page: its heading, the document title, and focus on the heading after a route change
 * (so a screen reader announces the new page and the keyboard starts from it; the first load leaves focus
 * where the browser put it).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { hasNavigated } from '../router';

export function Page({
  title,
  heading,
  actions,
  hideHeading,
  children,
}: {
  title: string;
  heading?: ReactNode;
  actions?: ReactNode;
  hideHeading?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Station`;
  }, [title]);
  useEffect(() => {
    if (hasNavigated()) ref.current?.focus({ preventScroll: false });
  }, []);
  return (
    <section className="page" aria-labelledby={id}>
      <div className={hideHeading ? 'visually-hidden' : 'page-head'}>
        <h2 id={id} ref={ref} tabIndex={-1}>
          {heading ?? title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A loading or failure line that keeps its height, so content arriving does not push the page about. */
export function Loading({ error }: { error?: string | null }) {
  if (error)
    return (
      <p className="alert alert-error" role="alert">
        {error}
      </p>
    );
  return (
    <p className="status-line" role="status">
      Loading…
    </p>
  );
}
