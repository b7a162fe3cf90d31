/** loadConfig for media in an object store: the S3_* variables, STATION_MEDIA_LINKS and S3_PUBLIC_ENDPOINT. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const S3 = {
  S3_ENDPOINT: 'http://minio:9000/',
  S3_BUCKET: 'station-media',
  S3_REGION: 'eu-central-1',
  S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'a-secret-key-never-echoed',
  S3_FORCE_PATH_STYLE: 'true',
};

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, '/srv');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('object store configuration', () => {
  it('keeps media under DATA_DIR behind station-signed links when nothing is set', () => {
    const config = loadConfig({}, '/srv');
    expect(config.s3).toBeNull();
    expect(config.mediaLinks).toEqual({ mode: 'proxy' });
  });

  it('reads the S3_* variables', () => {
    expect(loadConfig(S3, '/srv').s3).toEqual({
      endpoint: 'http://minio:9000',
      bucket: 'station-media',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'a-secret-key-never-echoed' },
      forcePathStyle: true,
    });
  });

  it('needs only the bucket: AWS S3, us-east-1, virtual-hosted, the SDK finding credentials itself', () => {
    expect(loadConfig({ S3_BUCKET: 'media' }, '/srv').s3).toEqual({
      endpoint: null,
      bucket: 'media',
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
    });
    expect(loadConfig({ S3_BUCKET: 'media', S3_REGION: ' ', S3_ENDPOINT: '' }, '/srv').s3?.endpoint).toBeNull();
  });

  it('refuses an S3 setting without a bucket, keys that come alone, and bad values, naming the variable', () => {
    expect(configError({ S3_ENDPOINT: 'http://minio:9000' }).message).toContain('S3_BUCKET');
    expect(configError({ ...S3, S3_BUCKET: 'no/slashes' }).message).toContain('S3_BUCKET');
    expect(configError({ ...S3, S3_ENDPOINT: 'ftp://minio' }).message).toContain('S3_ENDPOINT');
    expect(configError({ ...S3, S3_REGION: 'eu central' }).message).toContain('S3_REGION');
    expect(configError({ ...S3, S3_FORCE_PATH_STYLE: 'maybe' }).message).toContain('S3_FORCE_PATH_STYLE');
    expect(configError({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AKIDEXAMPLE' }).message).toContain('S3_SECRET_ACCESS_KEY');
    const lone = configError({ S3_BUCKET: 'media', S3_SECRET_ACCESS_KEY: 'a-secret-key-never-echoed' });
    expect(lone.message).toContain('S3_ACCESS_KEY_ID');
    expect(lone.message).not.toContain('a-secret-key-never-echoed');
  });

  it('hands out presigned links when asked, at the public endpoint if one is given', () => {
    expect(loadConfig({ ...S3, STATION_MEDIA_LINKS: 'presigned' }, '/srv').mediaLinks).toEqual({ mode: 'presigned', publicEndpoint: null });
    expect(loadConfig({ ...S3, STATION_MEDIA_LINKS: 'presigned', S3_PUBLIC_ENDPOINT: 'https://media.example.com/' }, '/srv').mediaLinks).toEqual({
      mode: 'presigned',
      publicEndpoint: 'https://media.example.com',
    });
    expect(loadConfig({ ...S3, STATION_MEDIA_LINKS: 'proxy' }, '/srv').mediaLinks).toEqual({ mode: 'proxy' });
  });

  it('refuses presigned links without an object store and its keys, an unknown mode, and a public endpoint for proxied links', () => {
    expect(configError({ STATION_MEDIA_LINKS: 'presigned' }).message).toContain('STATION_MEDIA_LINKS');
    expect(configError({ S3_BUCKET: 'media', STATION_MEDIA_LINKS: 'presigned' }).message).toContain('STATION_MEDIA_LINKS');
    expect(configError({ ...S3, STATION_MEDIA_LINKS: 'cdn' }).message).toContain('STATION_MEDIA_LINKS');
    expect(configError({ ...S3, S3_PUBLIC_ENDPOINT: 'https://media.example.com' }).message).toContain('S3_PUBLIC_ENDPOINT');
  });
});
