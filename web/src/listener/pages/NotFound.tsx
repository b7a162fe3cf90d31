import { Link } from '../router';
import { Page } from './Page';

export default function NotFound() {
  return (
    <Page title="Not found" heading="There is no page here">
      <p>
        Try the <Link to="/browse">catalog</Link> or the <Link to="/">radio</Link>.
      </p>
    </Page>
  );
}
