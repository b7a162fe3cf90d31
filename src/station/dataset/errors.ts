/** Module B's domain errors; the error handler adds the STATION_ prefix and renders the envelope. */
import { DomainError, Errors } from '../../errors.js';

export const DatasetErrors = {
  /** Spec: an attempt to include content not owned by the platform in the training dataset. */
  violation: (detail: string) =>
    new DomainError('invalid', 'DATASET_VIOLATION', 'The training dataset may only hold platform-owned masters and lyrics by platform songwriters', detail),
  artistNotFound: (artistId: string) => Errors.notFound('Dataset artist', artistId),
  snapshotNotFound: (snapshotId: string) => Errors.notFound('Dataset snapshot', snapshotId),
  /** A snapshot names items that can no longer be trained on exactly (deleted, or no longer platform-owned). */
  snapshotStale: (snapshotId: string, missing: string[]) =>
    Errors.conflict(
      'The snapshot names items that are no longer available for training',
      `snapshot ${snapshotId}: ${missing.length} item(s) missing or no longer platform-owned: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}`,
    ),
};
