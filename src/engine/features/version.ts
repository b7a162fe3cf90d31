/**
 * Stored with every track_features row, so features from another version of the pipeline can be told apart.
 * In a file of its own: the API process records it without loading the extractor (and meyda) itself.
 */
export const FEATURE_EXTRACTOR_VERSION = 'features-v1';
