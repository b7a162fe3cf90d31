/** A release: its tracks in order (play, save one or all), its artist, and the store products that sell it (buy). */
import { useLoad } from '../../shared/ui';
import type { AlbumDetail } from '../api-types';
import { Link, paths } from '../router';
import { api } from '../session';
import { BuyButton } from './buying';
import { Loading, Page } from './Page';
import { SaveAllButton, SaveButton, TrackRows, VerifiedBadge } from './parts';
import { clock } from '../../shared/ui';

export default function AlbumPage({ id }: { id: string }) {
  const album = useLoad(() => api.get<AlbumDetail>(`/v1/albums/${encodeURIComponent(id)}`), [id]);
  const data = album.data;
  return (
    <Page title={data?.title ?? 'Album'}>
      {!data ? (
        <Loading error={album.error} />
      ) : (
        <div className="stack">
          <p className="muted">
            {data.type}
            {data.release_year ? ` · ${data.release_year}` : ''} · {data.genre} · by <Link to={paths.artist(data.artist_slug)}>{data.artist}</Link>{' '}
            <VerifiedBadge verified={data.artist_verified} /> · {data.track_count} {data.track_count === 1 ? 'track' : 'tracks'}, {clock(data.duration)}
          </p>
          <section className="card stack" aria-label="Tracks">
            <div className="row">
              <SaveButton track={{ id: data.id, title: data.title }} />
              <SaveAllButton title={data.title} tracks={data.tracks} />
            </div>
            <TrackRows tracks={data.tracks} label={`${data.title}: tracks`} numbered extra={(t) => <SaveButton track={t} />} />
          </section>
          <section className="card" aria-labelledby="album-buy">
            <h3 id="album-buy">Buy</h3>
            {data.products.length === 0 ? (
              <p className="muted">Not on sale in the store.</p>
            ) : (
              data.products.map((product) => <BuyButton key={product.id} product={product} />)
            )}
          </section>
        </div>
      )}
    </Page>
  );
}
