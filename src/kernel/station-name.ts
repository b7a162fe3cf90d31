/**
 * The station's name as it signs its work: in the registry's records and the tracks' tags, the transparency
 * pages and the AI policy. One constant so that what the registry certifies and what the pages say agree.
 */
export const STATION_NAME = 'Station';
